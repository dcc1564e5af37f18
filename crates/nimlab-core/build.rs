// The default lab is embedded with include_dir, which cannot tell cargo about the files it
// reads: without this, editing a fixture would not rebuild the binary.
fn main() {
    println!("cargo:rerun-if-changed=../../exercises");
    println!("cargo:rerun-if-changed=../../fixtures");
}
