//! `nimlab init DIR`: the pack handed to students: statements, stubs and sample cases only.

use crate::error::{Error, Result};
use crate::lab::{Lab, Visibility};
use std::path::Path;

pub fn init(lab: &Lab, dir: &Path) -> Result<usize> {
    let mut files = 0;
    crate::fsutil::write_folder(dir, |root| {
        let mut write = |relative: String, text: &[u8]| -> Result<()> {
            let path = root.join(&relative);
            if let Some(folder) = path.parent() {
                std::fs::create_dir_all(folder).map_err(|e| {
                    Error::internal(format!("{}: cannot create", folder.display()), e)
                })?;
            }
            std::fs::write(&path, text).map_err(|e| Error::unwritable(&path, e))?;
            files += 1;
            Ok(())
        };
        let mut index = String::from(INDEX);
        let mut shared: std::collections::BTreeMap<String, (&String, &Vec<u8>)> =
            std::collections::BTreeMap::new();
        for (n, exercise) in lab.exercises.iter().enumerate() {
            index.push_str(&format!(
                "{}. `{}.py`: {}{}\n",
                n + 1,
                exercise.name,
                exercise.config.title,
                if exercise.config.further_study {
                    " (optional)"
                } else {
                    ""
                }
            ));
            write(format!("{}.py", exercise.name), exercise.stub.as_bytes())?;
            write(
                format!("statements/{}.md", exercise.name),
                exercise.statement.as_bytes(),
            )?;
            // Beside the statements, where their relative links find them.
            for (file, bytes) in &exercise.files {
                match shared.insert(file.clone(), (&exercise.name, bytes)) {
                    Some((other, theirs)) if theirs != bytes => {
                        return Err(Error::usage(format!(
                            "exercises {other} and {} both have a statement file `{file}`, and they differ: `nimlab init` puts them in one folder, so rename one",
                            exercise.name
                        )));
                    }
                    _ => write(format!("statements/{file}"), bytes)?,
                }
            }
            for case in exercise
                .cases
                .iter()
                .filter(|c| c.visibility == Visibility::Sample)
            {
                let stem = case.name.trim_start_matches("sample/");
                write(
                    format!("samples/{}/{stem}.in", exercise.name),
                    case.input.text().as_bytes(),
                )?;
                write(
                    format!("samples/{}/{stem}.out", exercise.name),
                    case.expected.as_bytes(),
                )?;
            }
        }
        write("README.md".into(), index.as_bytes())
    })?;
    Ok(files)
}

const INDEX: &str = "# The game of Nim: lab exercises\n\nWork through the exercises in this order. Each `NAME.py` is a starter file: fill in the\nfunctions, keep the block at the bottom, and check your work with\n\n    nimlab check NAME.py\n\nThe statements are in `statements/`; the sample cases (input and expected output) in\n`samples/`. Your work is also graded on secret cases, so make it right for every input the\nstatement allows, not just the samples.\n\n";
