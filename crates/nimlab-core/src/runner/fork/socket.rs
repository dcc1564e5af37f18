//! The fork server's control socket: a Unix SOCK_SEQPACKET pair (one message per send, kept
//! whole), descriptors passed with SCM_RIGHTS, and the sender's pid read from the kernel's
//! SCM_CREDENTIALS (translated into nimlab's PID namespace: a forked child tells nimlab who
//! it is just by writing).

use super::protocol::Tag;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::time::Duration;

/// The largest message either side sends.
const MAX_MESSAGE: usize = 1 << 20;

/// A connected pair: nimlab's end (which receives the senders' credentials) and the server's.
pub(super) fn pair() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: fds is a live array of two descriptors to fill.
    let r = unsafe {
        libc::socketpair(
            libc::AF_UNIX,
            libc::SOCK_SEQPACKET | libc::SOCK_CLOEXEC,
            0,
            fds.as_mut_ptr(),
        )
    };
    if r != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: both descriptors were just created and belong to nobody else.
    let (ours, theirs) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    let on: libc::c_int = 1;
    // SAFETY: a plain setsockopt with a pointer to a live int.
    let r = unsafe {
        libc::setsockopt(
            ours.as_raw_fd(),
            libc::SOL_SOCKET,
            libc::SO_PASSCRED,
            (&on as *const libc::c_int).cast(),
            std::mem::size_of::<libc::c_int>() as libc::socklen_t,
        )
    };
    if r != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok((ours, theirs))
}

/// Sends one message.
/// The longest message the server reads whole (`_MESSAGE_MAX` in the script): a run whose
/// message would be longer is made as a process.
pub(super) const MESSAGE_MAX: usize = 1 << 16;

pub(super) fn send(socket: &OwnedFd, message: &[u8]) -> io::Result<()> {
    loop {
        // SAFETY: sends from a live buffer; MSG_NOSIGNAL: a closed peer is an error, not SIGPIPE.
        let r = unsafe {
            libc::send(
                socket.as_raw_fd(),
                message.as_ptr().cast(),
                message.len(),
                libc::MSG_NOSIGNAL,
            )
        };
        if r >= 0 {
            return Ok(());
        }
        let e = io::Error::last_os_error();
        if e.kind() != io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}

/// Sends descriptors, all in one message of one byte ([`Tag::Descriptors`]).
pub(super) fn send_fds(socket: &OwnedFd, fds: &[RawFd]) -> io::Result<()> {
    let mut byte = [Tag::Descriptors.byte()];
    let mut iov = libc::iovec {
        iov_base: byte.as_mut_ptr().cast(),
        iov_len: 1,
    };
    let payload = std::mem::size_of_val(fds) as u32;
    // SAFETY: CMSG_SPACE is a pure computation.
    let space = unsafe { libc::CMSG_SPACE(payload) } as usize;
    let mut control = vec![0u8; space];
    // SAFETY: msghdr is plain old data; every pointer set below refers to a live local.
    let mut msg: libc::msghdr = unsafe { std::mem::zeroed() };
    msg.msg_iov = &mut iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control.as_mut_ptr().cast();
    msg.msg_controllen = space;
    // SAFETY: the control buffer holds one header with room for every descriptor.
    unsafe {
        let header = libc::CMSG_FIRSTHDR(&msg);
        (*header).cmsg_level = libc::SOL_SOCKET;
        (*header).cmsg_type = libc::SCM_RIGHTS;
        (*header).cmsg_len = libc::CMSG_LEN(payload) as usize;
        let data = libc::CMSG_DATA(header).cast::<RawFd>();
        for (i, fd) in fds.iter().enumerate() {
            std::ptr::write_unaligned(data.add(i), *fd);
        }
    }
    loop {
        // SAFETY: msg and everything it points to are live.
        let r = unsafe { libc::sendmsg(socket.as_raw_fd(), &msg, libc::MSG_NOSIGNAL) };
        if r >= 0 {
            return Ok(());
        }
        let e = io::Error::last_os_error();
        if e.kind() != io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}

/// One message received: its bytes and the pid of the process that sent it.
pub(super) struct Received {
    pub bytes: Vec<u8>,
    pub sender: Option<libc::pid_t>,
}

/// Waits up to `timeout` for the next message. None: the other end is closed.
pub(super) fn recv(socket: &OwnedFd, timeout: Duration) -> io::Result<Option<Received>> {
    let mut poll = libc::pollfd {
        fd: socket.as_raw_fd(),
        events: libc::POLLIN,
        revents: 0,
    };
    let millis = i32::try_from(timeout.as_millis()).unwrap_or(i32::MAX);
    loop {
        // SAFETY: one live pollfd.
        let ready = unsafe { libc::poll(&mut poll, 1, millis) };
        if ready > 0 {
            break;
        }
        if ready == 0 {
            return Err(io::Error::new(io::ErrorKind::TimedOut, "no answer in time"));
        }
        let e = io::Error::last_os_error();
        if e.kind() != io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
    // Not zeroed: a zeroed megabyte per message (calloc's memset, once the allocator keeps
    // such blocks on its heap) was most of nimlab's own time on the fast path.
    let mut buffer: Vec<u8> = Vec::with_capacity(MAX_MESSAGE);
    let mut iov = libc::iovec {
        iov_base: buffer.spare_capacity_mut().as_mut_ptr().cast(),
        iov_len: MAX_MESSAGE,
    };
    // SAFETY: CMSG_SPACE is a pure computation.
    let space = unsafe { libc::CMSG_SPACE(std::mem::size_of::<libc::ucred>() as u32) } as usize;
    let mut control = vec![0u8; space];
    // SAFETY: msghdr is plain old data; its pointers are set to live locals.
    let mut msg: libc::msghdr = unsafe { std::mem::zeroed() };
    msg.msg_iov = &mut iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control.as_mut_ptr().cast();
    msg.msg_controllen = space;
    let n = loop {
        // SAFETY: receives into live buffers described by msg; MSG_CMSG_CLOEXEC in case a
        // descriptor ever comes this way.
        let r = unsafe { libc::recvmsg(socket.as_raw_fd(), &mut msg, libc::MSG_CMSG_CLOEXEC) };
        if r >= 0 {
            break r as usize;
        }
        let e = io::Error::last_os_error();
        if e.kind() != io::ErrorKind::Interrupted {
            return Err(e);
        }
    };
    if n == 0 {
        return Ok(None);
    }
    // SAFETY: the kernel wrote the message's n bytes (at most MAX_MESSAGE) at its start.
    unsafe { buffer.set_len(n.min(MAX_MESSAGE)) };
    let mut sender = None;
    // SAFETY: walks the control headers the kernel wrote into `control`.
    unsafe {
        let mut header = libc::CMSG_FIRSTHDR(&msg);
        while !header.is_null() {
            if (*header).cmsg_level == libc::SOL_SOCKET
                && (*header).cmsg_type == libc::SCM_CREDENTIALS
            {
                let credentials =
                    std::ptr::read_unaligned(libc::CMSG_DATA(header).cast::<libc::ucred>());
                sender = (credentials.pid > 0).then_some(credentials.pid);
            }
            header = libc::CMSG_NXTHDR(&msg, header);
        }
    }
    Ok(Some(Received {
        bytes: buffer,
        sender,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};

    /// What the server does with the descriptors message: one recvmsg, room for three.
    fn receive_fds(socket: &OwnedFd) -> Vec<OwnedFd> {
        let mut byte = [0u8];
        let mut iov = libc::iovec {
            iov_base: byte.as_mut_ptr().cast(),
            iov_len: 1,
        };
        // SAFETY: CMSG_SPACE is a pure computation.
        let space = unsafe { libc::CMSG_SPACE(12) } as usize;
        let mut control = vec![0u8; space];
        // SAFETY: msghdr is plain old data; its pointers refer to live locals.
        let mut msg: libc::msghdr = unsafe { std::mem::zeroed() };
        msg.msg_iov = &mut iov;
        msg.msg_iovlen = 1;
        msg.msg_control = control.as_mut_ptr().cast();
        msg.msg_controllen = space;
        // SAFETY: msg and its buffers are live; the kernel fills at most their sizes.
        let n = unsafe { libc::recvmsg(socket.as_raw_fd(), &mut msg, 0) };
        assert_eq!(n, 1, "{}", io::Error::last_os_error());
        assert_eq!(byte, [Tag::Descriptors.byte()]);
        // SAFETY: the kernel wrote one SCM_RIGHTS header, checked before its data is read.
        unsafe {
            let header = libc::CMSG_FIRSTHDR(&msg);
            assert!(!header.is_null());
            assert_eq!((*header).cmsg_type, libc::SCM_RIGHTS);
            let count = ((*header).cmsg_len - libc::CMSG_LEN(0) as usize) / 4;
            let data = libc::CMSG_DATA(header).cast::<RawFd>();
            (0..count)
                .map(|i| OwnedFd::from_raw_fd(std::ptr::read_unaligned(data.add(i))))
                .collect()
        }
    }

    #[test]
    fn a_runs_three_descriptors_travel_in_one_message_in_their_order() {
        let (ours, theirs) = pair().unwrap();
        let pipes: Vec<(OwnedFd, OwnedFd)> = (0..3)
            .map(|_| super::super::server::pipe().unwrap())
            .collect();
        let ends: Vec<RawFd> = pipes.iter().map(|(_, w)| w.as_raw_fd()).collect();
        send_fds(&ours, &ends).unwrap();
        let received = receive_fds(&theirs);
        assert_eq!(received.len(), 3);
        for (i, fd) in received.into_iter().enumerate() {
            std::fs::File::from(fd)
                .write_all(format!("pipe {i}").as_bytes())
                .unwrap();
        }
        for (i, (read, write)) in pipes.into_iter().enumerate() {
            drop(write);
            let mut text = String::new();
            std::fs::File::from(read).read_to_string(&mut text).unwrap();
            assert_eq!(text, format!("pipe {i}"));
        }
    }
}
