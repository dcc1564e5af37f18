//! Connections under abuse: idle sockets, slow heads, a full descriptor table.

use super::*;
use std::io::{Read, Write};
use std::net::TcpStream;

/// The server's time limit for a request's head (`HEAD_TIMEOUT` in src/serve/connections.rs),
/// also the limit for a kept-alive connection's wait for its next request.
const HEAD_TIMEOUT: Duration = Duration::from_secs(10);

/// `nimlab serve` started with open-file limits of `soft` and `hard` (as systemd would).
fn start_with_file_limits(db: &Path, soft: u64, hard: u64) -> Server {
    let stderr = stderr_file(db);
    let mut command = Command::new("bash");
    command
        .arg("-c")
        .arg(format!(
            "ulimit -Sn {soft} && ulimit -Hn {hard} && exec \"$0\" \"$@\""
        ))
        .arg(assert_cmd::cargo::cargo_bin("nimlab"))
        .args(["serve", "--db"])
        .arg(db)
        .args(["--listen", "127.0.0.1:0", "--workers", "0"])
        .env("NO_COLOR", "1");
    Server::spawn(command, stderr)
}

/// This test process may hold `wanted` descriptors (its soft limit raised, within the hard).
fn allow_descriptors(wanted: u64) {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit on this process, with a struct of ours.
    unsafe {
        assert_eq!(libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit), 0);
        if limit.rlim_cur < wanted {
            assert!(limit.rlim_max >= wanted, "hard open-file limit too low");
            limit.rlim_cur = wanted;
            assert_eq!(libc::setrlimit(libc::RLIMIT_NOFILE, &limit), 0);
        }
    }
}

/// The soft and hard "Max open files" of a process, from /proc.
fn file_limits(pid: u32) -> (String, String) {
    let limits = std::fs::read_to_string(format!("/proc/{pid}/limits")).unwrap();
    let line = limits
        .lines()
        .find(|l| l.starts_with("Max open files"))
        .unwrap();
    let mut numbers = line.split_whitespace().skip(3);
    (
        numbers.next().unwrap().to_string(),
        numbers.next().unwrap().to_string(),
    )
}

/// Waits until the server closes `stream` (end of file or reset, after whatever answer it
/// sent), at most until `deadline`: whether it did.
fn closed_by(stream: &mut TcpStream, deadline: Instant) -> bool {
    let mut buffer = [0u8; 4096];
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return false;
        }
        stream.set_read_timeout(Some(left)).unwrap();
        match stream.read(&mut buffer) {
            Ok(0) => return true,
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => return true,
            Err(_) => return false,
        }
    }
}

#[test]
fn idle_sockets_past_the_descriptor_limit_leave_room_to_log_in_and_are_closed_in_time() {
    let dir = tempfile::tempdir().unwrap();
    let db = class_db(dir.path());
    let sockets = 1100;
    allow_descriptors(sockets + 256);
    // systemd's soft limit; the server raises it to the hard one, then keeps room under it.
    let mut server = start_with_file_limits(&db, 512, 1024);
    assert_eq!(
        file_limits(server.child().id()),
        ("1024".into(), "1024".into())
    );
    let address = server.base.strip_prefix("http://").unwrap().to_string();
    let opened = Instant::now();
    let mut idle: Vec<TcpStream> = (0..sockets)
        .map(|_| TcpStream::connect(&address).expect("the kernel takes the connection"))
        .collect();
    let login_started = Instant::now();
    let login = json_login(&server, "ada", "ada-password");
    let took = login_started.elapsed();
    assert!(login.status().is_success(), "{}", login.status());
    assert!(took < Duration::from_secs(8), "the login took {took:?}");
    // A sample, from the first opened to the last: none outlives the head timeout by much
    // once the server has it. The listening socket queues 1024 connections; under load the
    // server may fall behind the 1100 connects, and the kernel then takes a connection only at
    // its next SYN-ACK retry (1, 3 and 7 s on), so a late one starts its head timer then.
    let all_opened = opened.elapsed();
    let deadline =
        opened + all_opened + Duration::from_secs(7) + HEAD_TIMEOUT + Duration::from_secs(5);
    for (i, stream) in idle.iter_mut().enumerate().step_by(37) {
        assert!(closed_by(stream, deadline), "idle socket {i} still open");
    }
    assert!(!server.stderr().contains("warning"), "{}", server.stderr());
}

#[test]
fn a_head_trickled_a_byte_a_second_is_cut_off_at_the_head_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let db = class_db(dir.path());
    let server = Server::start(&db, None, &["--workers", "0"]);
    let address = server.base.strip_prefix("http://").unwrap();
    let mut stream = TcpStream::connect(address).unwrap();
    let head = format!(
        "GET /login HTTP/1.1\r\nHost: {address}\r\nX-Slow: {}",
        "a".repeat(60)
    );
    let started = Instant::now();
    stream
        .set_read_timeout(Some(Duration::from_secs(1)))
        .unwrap();
    let mut buffer = [0u8; 1024];
    let mut cut_off = None;
    for byte in head.bytes() {
        if stream.write_all(&[byte]).is_err() {
            cut_off = Some(started.elapsed());
            break;
        }
        // A second's wait for the server's word: nothing while it waits for the head.
        match stream.read(&mut buffer) {
            Ok(_) => {
                cut_off = Some(started.elapsed());
                break;
            }
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => {
                cut_off = Some(started.elapsed());
                break;
            }
            Err(_) => {}
        }
        assert!(
            started.elapsed() < HEAD_TIMEOUT * 2,
            "still reading the head"
        );
    }
    let cut_off = cut_off.expect("the head was cut off before its end");
    assert!(
        cut_off >= HEAD_TIMEOUT - Duration::from_secs(1)
            && cut_off < HEAD_TIMEOUT + Duration::from_secs(4),
        "cut off after {cut_off:?}"
    );
}

#[test]
fn a_kept_alive_connection_left_idle_is_closed_after_the_idle_limit() {
    let dir = tempfile::tempdir().unwrap();
    let db = class_db(dir.path());
    let server = Server::start(&db, None, &["--workers", "0"]);
    let mut stream = start_sending(&server, "GET /login HTTP/1.1\r\n", "");
    let answer = answer_head(&mut stream, Duration::from_secs(15));
    assert!(answer.starts_with("HTTP/1.1 200 "), "{answer}");
    assert!(
        !answer.to_ascii_lowercase().contains("connection: close"),
        "{answer}"
    );
    let answered = Instant::now();
    // The rest of the page comes, then nothing: the connection waits for its next request.
    assert!(
        closed_by(&mut stream, answered + HEAD_TIMEOUT * 2),
        "still open after {:?}",
        answered.elapsed()
    );
    let idle = answered.elapsed();
    assert!(
        idle >= HEAD_TIMEOUT - Duration::from_secs(1),
        "closed after {idle:?}"
    );
    // A new connection is served as before.
    assert_eq!(
        client().get(server.url("/login")).send().unwrap().status(),
        StatusCode::OK
    );
}
