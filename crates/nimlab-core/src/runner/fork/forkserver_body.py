# nimlab's fork server (src/runner/fork/mod.rs). Run on Python 2.7 and 3 by forkserver.py,
# the script the interpreter starts (as the programs it serves would be run), in that script's
# globals, with its control socket (SOCK_SEQPACKET) as fd 0. It compiles a program once; for each
# run it forks a child that takes the run's stdin, stdout and stderr (received over the socket),
# becomes what a fresh `python FILE ARGS` would be at the moment it starts the file, and runs
# the compiled code as __main__. The server itself never runs a program's code.
#
# PROTOCOL.md, beside this file, describes the messages, what "as a fresh interpreter" means
# here, and each workaround below, with the test that guards it.
#
# Sections, in order:
#    1. Start-up facts         what the server reads once, as it starts
#    2. Messages               the control socket, and the messages' tags
#    3. The server's state     everything that changes from one run to the next
#    4. Compiling programs
#    5. Serving                the message loop, and a run from its request to its end
#    6. Preparing a run        in the server, before the fork
#    7. sys.modules            around the fork, and random's seed
#    8. In the child           from the fork to the program's first line
#    9. A run's namespaces     each run's own, made for it and gone with it
#   10. The C library          calls Python does not make as the server needs them
#   11. Ending the program     as the interpreter ends (called by forkserver.py, in the child)
#   12. Recursion depth
#   13. Start                  the fixed facts, made once, then serving
#
# The same file runs under Python 2.7 and 3 (.ci/run compiles it under both): no syntax of
# one that the other lacks. forkserver.py uses PY3, _print_exception, _exit_code and _finish,
# and runs the program in _code with _globals, which the server leaves in its globals.


# ==============================================================================================
# 1. Start-up facts: what the server reads once, as it starts (never changed after).
# ==============================================================================================

import os
import sys

PY3 = sys.version_info[0] >= 3
# A script's folder is sys.path[0] (unless safe_path or isolated): the program's is, instead.
_PATH0 = bool(sys.path) and sys.path[0] == os.path.dirname(os.path.realpath(_SELF))
# How nimlab started it (Server::start): "sandbox" or "bare", then the folder the runs'
# working folders are made in.
_SANDBOX = len(sys.argv) > 1 and sys.argv[1] == "sandbox"
_MOUNT = sys.argv[2] if len(sys.argv) > 2 else ""
# A zygote (section 9b): the folder holding every submission's folders it may be asked to
# serve, shown to it whole; it forks a server for each submission, which sees only that one's.
_ZYGOTE = len(sys.argv) > 5 and sys.argv[4] == "zygote"
_ROOT = sys.argv[5] if _ZYGOTE else ""
# Folders a submission's server does not show its runs: the zygote's root and working folder.
_HIDDEN = []
# The control socket, kept apart from 0, which each child's stdin takes.
_FD = os.dup(0)

import gc
import resource
import struct as _struct

_collect, _gc_enabled, _FROZEN = gc.collect, gc.isenabled, hasattr(gc, "freeze")


# ==============================================================================================
# 2. Messages: the control socket, and the messages' tags (PROTOCOL.md).
# One message per read or write (SOCK_SEQPACKET), its fields separated by NUL bytes.
# ==============================================================================================

# The tags, each a message's first field. nimlab reads and writes them in protocol.rs; the
# server reads C, R (then a run's descriptors), W and L, and sends C, N and X and S; a child it
# forked sends H or F; forkserver.py sends B, once. A zygote reads U and sends Z; the server it
# forks sends E (or N) first.
_COMPILE = b"C"
_RUN = b"R"
_WATCHING = b"W"
_REFUSED = b"N"
_READY = b"H"
_FAILED = b"F"
_EXITED = b"X"
_SETTLED = b"S"
_ENTER = b"U"
_ENTERED = b"E"
_LEAVE = b"L"
_LEFT = b"Z"


if PY3:
    import _socket

    _SOCK = _socket.socket(_socket.AF_UNIX, _socket.SOCK_SEQPACKET, 0, _FD)

    def _recv_fds():
        data, ancillary, flags, address = _SOCK.recvmsg(1, _socket.CMSG_SPACE(12))
        for level, kind, payload in ancillary:
            if level == _socket.SOL_SOCKET and kind == _socket.SCM_RIGHTS:
                fds = [int.from_bytes(payload[i : i + 4], sys.byteorder) for i in (0, 4, 8)]
                if len(payload) == 12:
                    return fds
                for fd in fds[: len(payload) // 4]:
                    os.close(fd)
        raise OSError("three descriptors were expected")

    def _text(b):
        return os.fsdecode(b)

else:
    _SOCK = None

    def _fds_receiver():
        """recvmsg(2) for a run's three descriptors, through ctypes (Python 2's socket has no recvmsg;
        _multiprocessing's recvfd would import multiprocessing, threading, subprocess and
        pickle into the server, and each run forks all of that)."""
        import ctypes

        size_t, void_p = ctypes.c_size_t, ctypes.c_void_p

        class Iovec(ctypes.Structure):
            _fields_ = [("base", void_p), ("len", size_t)]

        class Msghdr(ctypes.Structure):
            _fields_ = [
                ("name", void_p),
                ("namelen", ctypes.c_uint),
                ("iov", ctypes.POINTER(Iovec)),
                ("iovlen", size_t),
                ("control", void_p),
                ("controllen", size_t),
                ("flags", ctypes.c_int),
            ]

        libc = ctypes.CDLL(None, use_errno=True)
        recvmsg = libc.recvmsg
        recvmsg.restype = ctypes.c_ssize_t
        recvmsg.argtypes = [ctypes.c_int, ctypes.POINTER(Msghdr), ctypes.c_int]
        word = ctypes.sizeof(size_t)
        header = (word + 8 + word - 1) // word * word  # CMSG_LEN(0): len, level, type
        space = header + (12 + word - 1) // word * word  # CMSG_SPACE(12)
        data = ctypes.create_string_buffer(1)
        control = ctypes.create_string_buffer(space)
        iov = Iovec(ctypes.cast(data, void_p), 1)
        msg = Msghdr(None, 0, ctypes.pointer(iov), 1, ctypes.cast(control, void_p), space, 0)
        get_errno = ctypes.get_errno
        layout = "=" + ("Q" if word == 8 else "I") + "ii"

        def recv_fds():
            while True:
                msg.controllen = space
                msg.flags = 0
                n = recvmsg(_FD, ctypes.byref(msg), 0)
                if n >= 0:
                    break
                number = get_errno()
                if number != 4:
                    raise OSError(number, os.strerror(number))
            raw = control.raw
            length, level, kind = _struct.unpack(layout, raw[: word + 8])
            # (Level and type 1: SOL_SOCKET and SCM_RIGHTS.)
            if n == 0 or msg.controllen < header + 4 or level != 1 or kind != 1:
                raise OSError("three descriptors were expected")
            fds = list(_struct.unpack("=iii", raw[header : header + 12]))
            got = min(max(length - header, 0), msg.controllen - header) // 4
            if got != 3:
                for fd in fds[:got]:
                    os.close(fd)
                raise OSError("three descriptors were expected")
            return fds

        return recv_fds

    try:
        _recv_fds = _fds_receiver()
    except Exception:
        # (Without ctypes the descriptors cannot be received: every run is refused.)
        _recv_fds = None

    def _text(b):
        return b


def _send(data):
    os.write(_FD, data)


# The longest message nimlab sends (socket.rs, MESSAGE_MAX). Read into a buffer this big, a
# message is made on the heap, not in memory mapped and unmapped for it on every read.
_MESSAGE_MAX = 1 << 16


def _recv():
    while True:
        try:
            return os.read(_FD, _MESSAGE_MAX)
        except OSError as e:
            if e.errno != 4:
                raise


def _int(b):
    return int(b.decode("ascii") if PY3 else b)


# ==============================================================================================
# 3. The server's state: all of its own that changes from one run to the next, in two
# objects. (What section 1 reads and section 13 makes is fixed once the server serves. The
# interpreter's own state it sets for each run, os.environ, sys.argv, sys.path[0], sys.modules
# and descriptors 0 to 2, is in sections 6 and 7.)
# ==============================================================================================

class _Reused(object):
    """What the server made for earlier runs and keeps for later ones: each is used again
    while it fits, and made again when it does not."""

    __slots__ = ("compiled", "environ", "home", "argv", "loaders", "streams")

    def __init__(self, home):
        # By program path: (stat key, code or None, probe JSON, warnings text, servable,
        # the program's folder), as _compile made it.
        self.compiled = {}
        # The environment as the last run had it (os.environ is set to each run's: _prepare);
        # None before the first run.
        self.environ = None
        # HOME as the last run had it (site's user folders follow it: _user_site).
        self.home = home
        # The runs' arguments as sys.argv has them (set again only when they change).
        self.argv = None
        # By program path, __main__'s loader (_loader).
        self.loaders = {}
        # Standard streams made for runs, by what they were made on (_streams).
        self.streams = {}


class _Imports(object):
    """The server's bookkeeping of sys.modules around each fork (section 7), and what a
    child keeps of it."""

    __slots__ = ("own", "own_held", "own_count", "dropped", "kept", "mark", "seeder", "seeding")

    def __init__(self):
        # The server's own modules (taken out of sys.modules while a child is forked), and how
        # many modules there were when they were last put back.
        self.own = []
        self.own_count = -1
        # The server's own modules, once out of sys.modules for good (held here: still in use).
        self.own_held = {}
        # What the last fork was made without (held: see _leave_modules).
        self.dropped = None
        # The preloaded modules a child keeps (all of them, set at start; each child sets its
        # own in its copy).
        self.kept = None
        # What sys.modules was as the child started (_module_mark).
        self.mark = None
        # The finder class that seeds a random the program imports itself, and the one a child
        # is forked with (see _seeder).
        self.seeder = None
        self.seeding = None


_reused = _Reused(os.environ.get("HOME"))
_imports = _Imports()


# ==============================================================================================
# 4. Compiling programs: once per program (and again when its file changes), for the syntax
# probe (C) and for its runs.
# ==============================================================================================

def _json(value):
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, dict):
        return "{" + ", ".join(_json(k) + ": " + _json(v) for k, v in value.items()) + "}"
    if not PY3 and isinstance(value, str):
        value = value.decode("utf-8", "replace")
    out = []
    for c in value:
        n = ord(c)
        if c == '"' or c == "\\":
            out.append("\\" + c)
        elif n < 0x20 or 0xD800 <= n < 0xE000:
            out.append("\\u%04x" % n)
        else:
            out.append(c)
    return '"' + "".join(out) + '"'


class _Capture(object):
    def __init__(self):
        self.parts = []

    def write(self, text):
        self.parts.append(text)

    def flush(self):
        pass


def _declares_coding(source):
    for line in source.split(b"\n")[:2]:
        stripped = line.lstrip(b" \t\f")
        if stripped.startswith(b"#") and (b"coding:" in stripped or b"coding=" in stripped):
            return True
    return False


def _compile(path):
    st = os.stat(path)
    key = (st.st_mtime, st.st_size, st.st_ino, st.st_dev)
    known = _reused.compiled.get(path)
    if known is not None and known[0] == key:
        return known
    f = open(path, "rb")
    source = f.read()
    f.close()
    report = {"version": "%d.%d.%d" % tuple(sys.version_info[:3]), "error": None}
    code = None
    # What compiling prints (SyntaxWarnings) a fresh interpreter prints on every run.
    capture = _Capture()
    saved = sys.stderr
    sys.stderr = capture
    try:
        try:
            code = compile(source, path, "exec", 0, True)
        except SyntaxError as e:
            text = e.text
            if isinstance(text, bytes):
                text = text.decode("utf-8", "replace")
            report["error"] = {
                "kind": type(e).__name__,
                "line": e.lineno,
                "message": str(e.msg),
                "text": text,
            }
        except Exception as e:
            # Whatever else compile() raises on the file's bytes is the file's fault too (see
            # src/syntax.rs): a NUL byte (TypeError in Python 2, ValueError in 3.6 to 3.10),
            # nesting too deep for the parser (MemoryError, RecursionError).
            report["error"] = {"kind": type(e).__name__, "line": None, "message": str(e), "text": None}
    finally:
        sys.stderr = saved
    servable = code is not None
    if servable and not PY3 and not source.startswith(b"\xef\xbb\xbf"):
        # Python 2 refuses to run a file with non-ASCII bytes and no coding line, though
        # compile() accepts it: such a file is run by a fresh interpreter.
        if not _declares_coding(source) and any(ord(c) >= 0x80 for c in source):
            servable = False
    folder = os.path.dirname(os.path.realpath(path))
    known = (key, code, _json(report), "".join(capture.parts), servable, folder)
    _reused.compiled[path] = known
    return known


# ==============================================================================================
# 5. Serving: the message loop, and a run from its request (R) to its end (X, S).
# ==============================================================================================

def _serve():
    """Answers nimlab until the socket ends (None); in a forked child, returns the program."""
    while True:
        message = _recv()
        if not message:
            return None
        kind = message[: message.find(b"\0")] if b"\0" in message else message
        if kind == _LEAVE:
            # (A zygote's server: its submission is over.)
            os._exit(0)
        if kind == _RUN:
            # (Handed over in a box that _run empties: the message dies before the fork.)
            box = [message]
            del message
            ran = _run(box)
            if ran is None:
                continue
            if ran[0] == 0:
                return ran[1:]
            pid, workdir = ran
            del ran
            _watched(pid)
            _reap(pid, workdir)
            continue
        fields = message.split(b"\0")
        if kind == _COMPILE:
            compiled = _compile(_text(fields[1]))
            _send(
                _COMPILE
                + b"\0"
                + (b"1" if compiled[1] is not None else b"0")
                + b"\0"
                + (b"1" if compiled[4] else b"0")
                + b"\0"
                + compiled[2].encode("utf-8")
            )
        else:
            _send(_REFUSED + b"\0unexpected message")


def _run(box):
    """Forks the run's child: in the server, (pid, working folder), or None if the run was
    refused; in the child, (0, code, globals). What it makes for the run alone dies before the
    fork: after it, each page of memory the server writes to is copied (while the child
    lives) or at least trapped once more, and freeing an object writes to its page."""
    message = box.pop()
    fields = message.split(b"\0")
    # A run's seed is a digest of its case's input: no later child may find it in the memory
    # it copies. The message and the seed's text are overwritten as soon as they are read, the
    # seed itself once the child has its copy (_wipe).
    _wipe(message)
    del message
    seed = int(fields[4]) if fields[4] else None
    _wipe(fields[4])
    path = _text(fields[1])
    workdir = _text(fields[2])
    cpu = _int(fields[3])
    n = _int(fields[5])
    argv = [_text(a) for a in fields[6 : 6 + n]]
    at = 6 + n
    m = _int(fields[at])
    env = [(_text(fields[at + 1 + 2 * i]), _text(fields[at + 2 + 2 * i])) for i in range(m)]
    if _recv_fds is None:
        _recv()
        _send(_REFUSED + b"\0descriptors cannot be received here")
        return None
    fds = _recv_fds()
    refusal = None
    # PYTHONUNBUFFERED is read when an interpreter starts: the server starts without it and
    # gives the runs that have it what it would have made (see _streams and _unbuffer).
    unbuffered = any(k == "PYTHONUNBUFFERED" and v for k, v in env)
    try:
        compiled = _compile(path)
        if _UNSAFE is not None:
            refusal = _UNSAFE
        elif not compiled[4]:
            refusal = b"this program is run by a fresh interpreter"
        elif unbuffered and _unbuffer is None:
            refusal = b"unbuffered C streams cannot be made here"
    except (IOError, OSError) as e:
        refusal = b"cannot read " + fields[1] + b": " + str(e).encode("utf-8", "replace")
    if refusal is not None:
        for fd in fds:
            os.close(fd)
        _wipe(seed)
        _send(_REFUSED + b"\0" + refusal)
        return None
    if not _SANDBOX:
        try:
            os.mkdir(workdir)
        except OSError:
            pass
    main, kept = _prepare(path, argv, env, compiled)
    del fields, argv, env, path
    # The child's descriptors 0, 1 and 2, and its standard streams on them, are made here:
    # what the child would build itself would copy the pages it touches.
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        os.close(fd)
    del fds
    streams = _streams(unbuffered)
    dropped = _leave_modules(kept, seed)
    inherited = _open_descriptors()
    if _FROZEN:
        # The server's objects are left out of the child's garbage collections, which
        # would otherwise copy every page of memory that it shares with the server.
        gc.freeze()
    pid = None
    try:
        pid = _fork()
    except OSError as e:
        refusal = b"cannot fork: " + str(e).encode("utf-8", "replace")
    if pid == 0:
        _imports.kept = kept
        _child(workdir, cpu, streams, compiled, inherited, unbuffered)
        return 0, compiled[1], main
    _return_modules(dropped)
    _wipe(seed)
    del seed
    # The server's own 0 and 1 are nothing, and its 2 is its stderr again.
    os.dup2(_NULL, 0)
    os.dup2(_NULL, 1)
    os.dup2(_ERR, 2)
    if refusal is not None:
        _send(_REFUSED + b"\0" + refusal)
        return None
    return pid, workdir


def _wiper(c):
    """wipe(value): overwrites with zeros, in place, the bytes of a bytes object (str in Python
    2) or the digits of an int, which the server holds no more (what is freed is not cleared,
    and a child copies all of the server's memory). Objects the interpreter shares (the empty
    and one-byte bytes, the small ints) are left alone. Without ctypes, nothing is wiped."""
    if c is None:
        return lambda value: None
    memset = c[0].memset
    bytes_head = sys.getsizeof(b"") - 1
    info = getattr(sys, "int_info", None) or getattr(sys, "long_info", None)
    ints = (int,) if PY3 else (int, long)  # noqa: F821 (Python 2's long)

    def wipe(value):
        if isinstance(value, bytes):
            if len(value) > 1:
                memset(id(value) + bytes_head, 0, len(value))
        elif isinstance(value, ints) and not isinstance(value, bool) and not -5 <= value <= 256:
            if not PY3 and type(value) is int:
                size = 8  # (a C long, the object's last field)
            else:
                digits = (abs(value).bit_length() + info.bits_per_digit - 1) // info.bits_per_digit
                size = digits * info.sizeof_digit
            memset(id(value) + sys.getsizeof(value) - size, 0, size)

    return wipe


def _watched(pid):
    """Waits for nimlab's word that it has the child's pidfd (after the child's "H" or "F"):
    until then the child is not reaped, so its pid is nobody else's."""
    while True:
        message = _recv()
        if message == _WATCHING:
            return
        if not message:
            # nimlab is gone: so is the run.
            _kill(pid)
            os._exit(0)
        _send(_REFUSED + b"\0unexpected message")


def _reap(pid, workdir):
    """Waits for the run's child to end (nimlab kills it when the run must stop early), kills
    what it left, says how it ended (X), then says whether the next run may follow (S)."""
    if not _SANDBOX and _waitid is not None:
        # Ended but not reaped, its process group's id stays taken while the group is killed.
        _waitid(os.P_PID, pid, os.WEXITED | os.WNOWAIT)
        _kill(pid)
    status, utime, stime, maxrss = _wait4(pid)
    if _SANDBOX:
        # As the namespace's init, the server inherits what the run left: all of it dies.
        while True:
            _kill(pid)
            try:
                os.waitpid(-1, 0)
            except OSError as e:
                if e.errno == 10:
                    break
                if e.errno != 4:
                    raise
    elif _waitid is None:
        # (Python 2 without a sandbox: the group is killed once the child is reaped.)
        _kill(pid)
    _send(_EXITED + ("\0%d\0%d\0%d\0%d" % (status, utime, stime, maxrss)).encode("ascii"))
    # In the sandbox each run's folders were its own mounts, gone with it: nothing is left to
    # clean. Without one its working folder is removed (what it wrote there is not looked for).
    clean = True
    if not _SANDBOX:
        try:
            os.rmdir(workdir)
        except OSError:
            clean = False
    _send(_SETTLED + b"\0" + (b"1" if clean else b"0"))


def _kill(pid):
    try:
        if _SANDBOX:
            os.kill(-1, 9)
        else:
            os.killpg(pid, 9)
    except OSError:
        pass


# ==============================================================================================
# 6. Preparing a run, in the server before it forks: what the child inherits is made here
# (its environment, __main__, argv, sys.path, standard streams), not in every child's copy of
# the server's memory.
# ==============================================================================================

def _prepare(path, argv, env, compiled):
    """In the server, before it forks: what a fresh interpreter would be when it starts the
    program, as far as the child inherits it (its environment, __main__, argv, path): done
    here, it is not done in every child's copy of the server's memory."""
    wanted = dict(env)
    environ = _reused.environ
    if environ is None or len(environ) != len(wanted) or any(k not in environ for k in wanted):
        for key in [k for k in os.environ if k not in wanted]:
            del os.environ[key]
        environ = _reused.environ = {}
    # Only what changed since the last run is set (each run has its own HOME, say): going
    # over all of os.environ writes to a page of the server's memory for each name in it.
    for key, value in env:
        if environ.get(key) != value:
            os.environ[key] = value
    _reused.environ = wanted
    main = type(sys)("__main__")
    d = main.__dict__
    d.clear()
    d.update(_INIT)
    if "__annotations__" in d:
        d["__annotations__"] = {}
    d["__file__"] = path
    if PY3:
        d["__cached__"] = None
        loader = _loader(path)
        if loader is not None:
            d["__loader__"] = loader
    sys.modules["__main__"] = main
    if argv != _reused.argv:
        # (Kept while the runs' arguments stay the same: each child has its own copy.)
        _reused.argv = argv
        sys.argv = list(argv)
        if hasattr(sys, "orig_argv"):
            sys.orig_argv = sys.orig_argv[:1] + list(argv)
    if _PATH0:
        sys.path[0] = compiled[5]
    # (As os.environ now has it, without going through os.environ's methods.)
    home = wanted.get("HOME")
    _user_site(_reused.home, home)
    _reused.home = home
    return d, _modules(compiled[5])


def _loader(path):
    """The loader a fresh interpreter gives __main__ for `path` (None where it has none),
    made once per program: each child has its own copy, as it would have its own."""
    loaders = _reused.loaders
    loader = loaders.get(path)
    if loader is None:
        external = sys.modules.get("_frozen_importlib_external")
        if external is None:
            return None
        if len(loaders) >= 16:
            loaders.clear()
        loader = loaders[path] = external.SourceFileLoader("__main__", path)
    return loader


def _user_site(old, home):
    """site's user folders follow HOME: the old HOME in them is replaced by the new."""
    site = sys.modules.get("site")
    if site is None or not old or home is None or home == old:
        return

    def moved(path):
        if isinstance(path, str) and (path == old or path.startswith(old + "/")):
            return home + path[len(old) :]
        return path

    for name in ("USER_BASE", "USER_SITE"):
        if hasattr(site, name):
            setattr(site, name, moved(getattr(site, name)))
    sysconfig = sys.modules.get("sysconfig")
    config = getattr(sysconfig, "_CONFIG_VARS", None)
    if config and "userbase" in config:
        config["userbase"] = moved(config["userbase"])


def _streams(unbuffered):
    """The standard streams a fresh interpreter makes on descriptors 0, 1 and 2 (None in
    Python 2, whose file objects stay on them). The server never uses them, only each child
    its own copy: those made for descriptors of the same kinds (what the streams read of them
    when made: file type, block size, whether at offset 0) serve every run like them."""
    if not PY3:
        return None
    key = (unbuffered, _kind(0), _kind(1), _kind(2))
    made = _reused.streams
    streams = made.get(key)
    if streams is None:
        if len(made) >= 8:
            made.clear()
        streams = made[key] = (
            _stdio(0, _STDIO[0], "r", unbuffered),
            _stdio(1, _STDIO[1], "w", unbuffered),
            _stdio(2, _STDIO[2], "w", unbuffered),
        )
    return streams


def _kind(fd):
    st = os.fstat(fd)
    try:
        at_start = os.lseek(fd, 0, os.SEEK_CUR) == 0
    except OSError:
        at_start = None
    return st.st_mode & 0o170000, st.st_blksize, at_start


def _stdio(fd, old, mode, unbuffered):
    """A standard stream as the interpreter makes it at start-up (create_stdio). The server
    itself starts buffered: `old`, its own stream, says how a buffered one is made."""
    import io

    buffering = 0 if (unbuffered and mode == "w") else -1
    buf = io.open(fd, mode + "b", buffering, None, None, None, False)
    raw = buf.raw if buffering else buf
    raw.name = old.name
    stream = io.TextIOWrapper(
        buf,
        old.encoding,
        old.errors,
        "\n",
        old.line_buffering and not unbuffered,
        unbuffered or getattr(old, "write_through", False),
    )
    stream.mode = mode
    return stream


def _open_descriptors():
    """The server's open descriptors where Python 2's children close them one by one (listing
    them here does not copy pages of the child's); None where they need not be listed."""
    if _close_range is not None:
        return None
    return _listed_descriptors()


def _listed_descriptors():
    try:
        return [int(name) for name in os.listdir("/proc/self/fd")]
    except OSError:
        return range(3, resource.getrlimit(resource.RLIMIT_NOFILE)[1])


# ==============================================================================================
# 7. sys.modules around the fork: the child starts with a fresh interpreter's modules (and
# the preloaded ones it may keep), and with random seeded as nimlab asks.
# ==============================================================================================

# Modules most of the lab's programs import, imported once here: a child keeps them unless
# a file beside its program would be imported instead (as it would by a fresh interpreter).
# They keep no state of their own, but random's generator, which is seeded for each child.
_PRELOAD = ("__future__", "json", "random")


def _preload():
    before = set(sys.modules)
    for name in _PRELOAD:
        try:
            __import__(name)
        except Exception:
            pass
    return frozenset(name for name in sys.modules if name not in before)


def _modules(folder):
    """The preloaded modules a run of a program in `folder` keeps: all of them, unless a file
    in the folder has the name of one (then none: the others may import it)."""
    if not _PATH0:
        return _PRELOADED
    try:
        names = os.listdir(folder)
    except OSError:
        return frozenset()
    for name in names:
        if name.split(".")[0] in _PRELOADED_TOPS:
            return frozenset()
    return _PRELOADED


def _leave_modules(kept, seed):
    """Leaves sys.modules as the child is to start with: what a fresh interpreter has, and
    the preloaded modules it keeps (random among them seeded: _reseed; where it is not, a
    finder seeds it as the program imports it: _seeder). The server's own imports are taken
    out for good where it needs none of them there (_wait4 through ctypes; os.wait4 would
    import resource on every run); otherwise they, like the preloaded modules the child does
    not keep, are returned, to be put back after the fork."""
    if len(sys.modules) != _imports.own_count:
        # The server imported something since: its own modules are listed again. (Going over
        # all of sys.modules on every run would write to a page for each module's name.)
        _imports.own = [n for n in sys.modules if n not in _STARTUP and n not in _PRELOADED]
        if _wait4 is not _os_wait4:
            for name in _imports.own:
                _imports.own_held[name] = sys.modules.pop(name)
            _imports.own = []
    dropped = {}
    for name in _imports.own:
        if name in sys.modules:
            dropped[name] = sys.modules.pop(name)
    if kept is not _PRELOADED:
        for name in _PRELOADED:
            if name not in kept and name in sys.modules:
                dropped[name] = sys.modules.pop(name)
    random = sys.modules.get("random")
    if random is not None:
        _reseed(random, seed)
    elif seed is not None:
        _seeder(seed)
    _imports.mark = _module_mark()
    # (Held by _imports, what is taken out stays alive in the child too: Python 2 would
    # clear each module it frees, writing to every page they are on.)
    _imports.dropped = dropped
    return dropped


def _return_modules(dropped):
    """In the server after the fork: puts back what _leave_modules took out (and takes out
    the finder _seeder put in)."""
    if dropped:
        sys.modules.update(dropped)
    if _imports.seeding is not None:
        _imports.seeding.leave()
        _imports.seeding = None
    _imports.own_count = len(sys.modules)


def _reseed(random, seed):
    """Seeds the child's generator: with nimlab's seed for the run, as its sitecustomize seeds
    a fresh interpreter's (random.seed(seed), whatever the state before); without one, afresh
    from the system's randomness, as a fresh interpreter's is when it imports random. (Python
    2's seed() of nothing makes a long of 2,500 random bytes and cuts it into the generator's
    key in quadratic time; its state is set from as many random bytes instead, which leaves it
    just as random.)"""
    if seed is not None:
        random.seed(seed)
        return
    if PY3:
        random.seed()
        return
    words = _struct.unpack("=624I", os.urandom(624 * 4))
    # (State version 3, Python 2.7's own: version 2 would convert every word again.)
    random.setstate((3, words + (624,), None))


def _seeder(seed):
    """Where the child is to import random itself: the finder nimlab's sitecustomize puts first
    in a fresh interpreter's sys.meta_path (random_seed.py, beside this file: loaded on first
    use), to seed the standard library's random as the program imports it. Put in before the
    fork (the child keeps it until then), taken out after (_return_modules)."""
    if _imports.seeder is None:
        path = os.path.join(os.path.dirname(_SELF), "random_seed.py")
        f = open(path, "rb")
        source = f.read()
        f.close()
        space = {"__name__": "nimlab_random_seed", "__file__": path}
        exec(compile(source, path, "exec", 0, True), space)
        _imports.seeder = space["RandomSeeder"]
    _imports.seeding = _imports.seeder(seed)
    sys.meta_path.insert(0, _imports.seeding)


def _module_mark():
    """What tells, cheaply, whether a program imported anything: how many modules there are,
    and (where dictionaries keep their order and can be reversed) the last one."""
    if sys.version_info >= (3, 8):
        for name in reversed(sys.modules):
            return len(sys.modules), name
    return None


# ==============================================================================================
# 8. In the child: from the fork to the program's first line (forkserver.py runs it).
# ==============================================================================================

def _child(workdir, cpu, streams, compiled, inherited, unbuffered):
    """In the forked child: becomes the program, up to running it."""
    try:
        if _set_dumpable is not None:
            _set_dumpable(1)
        if unbuffered:
            _unbuffer()
        os.setpgid(0, 0)
        if _fresh is not None:
            _fresh(workdir)
        _close_others(inherited)
        os.chdir(workdir)
        # In its sandbox a fresh interpreter is its namespace's init, which the soft limit's
        # SIGXCPU does not stop (nimlab's watch or the hard limit does): likewise here.
        resource.setrlimit(resource.RLIMIT_CPU, (cpu + 1 if _SANDBOX else cpu, cpu + 1))
        if _SANDBOX:
            # Under the run's memory limit, the kernel is to pick the program, not the server.
            try:
                f = os.open("/proc/self/oom_score_adj", os.O_WRONLY)
                os.write(f, b"1000")
                os.close(f)
            except OSError:
                pass
        if streams is not None:
            sys.stdin = sys.__stdin__ = streams[0]
            sys.stdout = sys.__stdout__ = streams[1]
            sys.stderr = sys.__stderr__ = streams[2]
        warnings = compiled[3]
        if warnings:
            sys.stderr.write(warnings)
        # The system call filter, as a fresh interpreter's sandbox applies it (see
        # runner/filter.rs): from here on the child can reach nothing but itself.
        if _install_filter is not None and not _install_filter():
            raise OSError("the system call filter could not be applied")
        # Last: the program is ready. The kernel gives nimlab this process's pid with it.
        _send(_READY)
        if _SOCK is not None:
            _SOCK.detach()
        os.close(_FD)
    except BaseException as e:
        try:
            _send(_FAILED + ("\0%r" % (e,)).encode("utf-8", "replace"))
        finally:
            os._exit(127)


def _close_others(inherited):
    """Closes every descriptor but 0, 1, 2 and the socket, at any number: with close_range(2)
    through ctypes where the kernel has it, else those the server had open when it forked."""
    if inherited is None:
        if (_FD == 3 or _close_range(3, _FD - 1)) and _close_range(_FD + 1, 0xFFFFFFFF):
            return
        inherited = _listed_descriptors()
    for fd in inherited:
        if fd > 2 and fd != _FD:
            try:
                os.close(fd)
            except OSError:
                pass


# ==============================================================================================
# 9. A run's own namespaces: every run starts in a sandbox of its own, made for it and gone
# with it, never one cleaned up after an earlier run.
# ==============================================================================================

# unshare(2)'s flags, and mount(2)'s.
_CLONE_NEWNS, _CLONE_NEWUTS, _CLONE_NEWIPC, _CLONE_NEWUSER = 0x20000, 0x4000000, 0x8000000, 0x10000000
_MS_RDONLY, _MS_NOSUID, _MS_NODEV, _MS_REMOUNT, _MS_BIND, _MS_REC = 1, 2, 4, 32, 4096, 16384
_O_PATH = 0o10000000
# The size of a run's working folder and of its /tmp (sandbox.rs, SCRATCH_BYTES).
_SCRATCH = b"mode=0755,size=16777216"


def _path_bytes(path):
    """A path as the C library takes it: the bytes os would pass (not UTF-8's alone)."""
    return os.fsencode(path) if PY3 else path


def _write_file(path, data):
    f = os.open(path, os.O_WRONLY)
    try:
        os.write(f, data)
    finally:
        os.close(f)


def _checker(get_errno):
    """check(result, what): raises OSError, with errno's text, where a C call returned
    nonzero."""

    def check(result, what):
        if result != 0:
            number = get_errno()
            raise OSError(number, "%s: %s" % (what, os.strerror(number)))

    return check


def _no_capabilities(ctypes, prctl, capset):
    """Gives up every capability this process holds in its user namespace, for good: the
    bounding set, the ambient set, then (capset) the effective, permitted and inheritable
    ones. capset's result (0 when it could)."""
    for cap in range(64):
        prctl(24, cap, 0, 0, 0)  # PR_CAPBSET_DROP (EINVAL past the last capability)
    prctl(47, 4, 0, 0, 0)  # PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL
    header = (ctypes.c_uint32 * 2)(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3, this process
    return capset(header, (ctypes.c_uint32 * 6)())


def _mounts():
    """The sandbox's mount points, in the order they were made (read once: they do not
    change), as the paths os takes (mountinfo escapes a space, a tab, a newline and a
    backslash in octal; other bytes are as they are)."""
    points = []
    try:
        f = open("/proc/self/mountinfo", "rb")
        for line in f.read().split(b"\n"):
            fields = line.split(b" ")
            if len(fields) > 4:
                raw = _unescaped(fields[4])
                point = os.fsdecode(raw) if PY3 else raw
                if point not in points:
                    points.append(point)
        f.close()
    except (IOError, OSError):
        pass
    return points


def _unescaped(field):
    """A mountinfo field with its octal escapes (\\040 for a space, \\012 for a newline) undone."""
    out = bytearray()
    i = 0
    while i < len(field):
        if len(field) >= i + 4 and field[i : i + 1] == b"\\" and field[i + 1 : i + 4].isdigit():
            out.append(int(field[i + 1 : i + 4], 8))
            i += 4
        else:
            out += field[i : i + 1]
            i += 1
    return bytes(out)


def _fresh_maker(c):
    """fresh(workdir), which a run's child calls first: it leaves the server's user, mount, UTS
    and IPC namespaces for new ones of its own (a user namespace first, which needs no
    privilege; in it the sandbox's unprivileged user again), mounts a new tmpfs on /tmp (and on
    the runs' folder where that is not in /tmp) with the program's folders bound again read-only
    and a new tmpfs as its working folder, and gives up the capabilities the new namespace gave
    it. Whatever the run makes (files, folders, inode numbers, a host name, IPC objects) is in
    these, and gone when the run ends. None outside the sandbox, or where ctypes cannot call
    the C library."""
    if c is None or not _SANDBOX:
        return None
    ctypes, libc = c
    try:
        unshare = libc.unshare
        unshare.restype = ctypes.c_int
        unshare.argtypes = [ctypes.c_int]
        mount = libc.mount
        mount.restype = ctypes.c_int
        mount.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong, ctypes.c_char_p]
        prctl = libc.prctl
        capset = libc.capset
        capset.restype = ctypes.c_int
        get_errno = ctypes.get_errno
        # The server is the sandbox's unprivileged user (see _own_user_namespace): each run
        # maps that user to itself.
        maps = [
            ("/proc/self/uid_map", ("%d %d 1" % (os.getuid(), os.getuid())).encode("ascii")),
            ("/proc/self/gid_map", ("%d %d 1" % (os.getgid(), os.getgid())).encode("ascii")),
        ]
    except Exception:
        return None
    points = _mounts()
    roots = ["/tmp"]
    if not (_MOUNT + "/").startswith("/tmp/"):
        roots.append(_MOUNT)
    script = os.path.dirname(_SELF)
    # The program's folders, bound under those roots (the server's own folder is not).
    binds = [
        p
        for p in points
        if p not in roots
        and p != _MOUNT
        and not (p + "/").startswith(script + "/")
        and p not in _HIDDEN
        and any((p + "/").startswith(r + "/") for r in roots)
    ]

    check, write = _checker(get_errno), _write_file

    def folders(path):
        if not os.path.isdir(path):
            os.makedirs(path, 0o755)

    def fresh(workdir):
        check(unshare(_CLONE_NEWUSER), "a user namespace")
        write("/proc/self/setgroups", b"deny")
        for path, line in maps:
            write(path, line)
        check(unshare(_CLONE_NEWNS | _CLONE_NEWUTS | _CLONE_NEWIPC), "namespaces")
        fds = [os.open(p, _O_PATH) for p in binds]
        for root in roots:
            check(mount(b"tmpfs", _path_bytes(root), b"tmpfs", _MS_NOSUID | _MS_NODEV, _SCRATCH), "tmpfs " + root)
        for point, fd in zip(binds, fds):
            folders(point)
            source = ("/proc/self/fd/%d" % fd).encode()
            check(mount(source, _path_bytes(point), None, _MS_BIND | _MS_REC, None), "bind " + point)
            os.close(fd)
            # (Bound from a read-only mount of bubblewrap's, it is read-only already, and
            # locked so; made so again where it could be made otherwise.)
            flags = _MS_REMOUNT | _MS_BIND | _MS_RDONLY | _MS_NOSUID | _MS_NODEV
            if mount(None, _path_bytes(point), None, flags, None) != 0 and not _read_only(point):
                raise OSError(get_errno(), "read-only " + point)
        folders(workdir)
        check(mount(b"tmpfs", _path_bytes(workdir), b"tmpfs", _MS_NOSUID | _MS_NODEV, _SCRATCH), "tmpfs " + workdir)
        # The capabilities the new user namespace gave: none is left, nor can any come back.
        check(_no_capabilities(ctypes, prctl, capset), "capabilities")

    return fresh


def _read_only(path):
    try:
        return bool(os.statvfs(path).f_flag & 1)  # ST_RDONLY
    except OSError:
        return False


def _fresh_works():
    """Whether a run's namespaces can be made here (a user namespace may be refused: a limit
    of zero, a container's filter): tried once, in a child of the server's."""
    pid = os.fork()
    if pid == 0:
        status = 1
        try:
            _fresh(os.path.join(_MOUNT, "trial"))
            status = 0
        finally:
            os._exit(status)
    while True:
        try:
            return os.waitpid(pid, 0)[1] == 0
        except OSError as e:
            if e.errno != 4:
                return False


def _read_all(path):
    f = os.open(path, os.O_RDONLY)
    try:
        chunks = []
        while True:
            chunk = os.read(f, 1 << 16)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
    finally:
        os.close(f)


# ==============================================================================================
# 9b. A zygote: one warm interpreter for every submission of a nimlab process's thread. It
# never compiles or runs a program: for each submission it forks a server (U), which leaves for
# namespaces of its own where only that submission's folders are shown, says so (E), and serves
# the submission's runs as any server does, until nimlab is done with it (L). The zygote reaps
# it and says so (Z). No submission's code or case is ever in the zygote's memory.
# ==============================================================================================

def _zygote():
    """Serves submissions, each by a server of its own, until the socket ends (None); in a
    forked server's child, returns the program as _serve does."""
    while True:
        message = _recv()
        if not message:
            return None
        if message[:2] != _ENTER + b"\0":
            _send(_REFUSED + b"\0unexpected message")
            continue
        # The submission's folders are read in its server alone, and the message wiped here:
        # no later submission's run finds an earlier one's names in the memory it copies.
        pid = os.fork()
        if pid != 0:
            _wipe(message)
            del message
        else:
            try:
                fields = message.split(b"\0")
                if len(fields) < 3:
                    raise OSError("no folders named")
                mount = _text(fields[1])
                folders = [_text(f) for f in fields[2:]]
                del message, fields
                _enter(mount, folders)
            except BaseException as e:
                try:
                    _send(_REFUSED + ("\0%s" % (e,)).encode("utf-8", "replace"))
                finally:
                    os._exit(1)
            _send(_ENTERED)
            return _serve()
        status = _ended(pid)
        _send(_LEFT + ("\0%d" % status).encode("ascii"))


def _ended(pid):
    """Waits for a submission's server to end; as the namespace's init, then kills and reaps
    whatever was left. Its status."""
    status = 0
    while True:
        try:
            status = os.waitpid(pid, 0)[1]
            break
        except OSError as e:
            if e.errno == 10:
                break
            if e.errno != 4:
                raise
    while True:
        try:
            os.kill(-1, 9)
        except OSError:
            pass
        try:
            os.waitpid(-1, 0)
        except OSError as e:
            if e.errno == 10:
                return status
            if e.errno != 4:
                raise


def _enter(mount, folders):
    """In the server a zygote forked for one submission: a user and a mount namespace of its
    own, in which the zygote's root (every submission's folders) is covered by an empty tmpfs,
    read-only, holding only this submission's folders (bound again, read-only) and a new tmpfs
    for its runs' working folders; then no capability, and the runs' namespaces made from here
    (_fresh_maker, with the root and the zygote's own working folder hidden)."""
    global _MOUNT, _fresh
    if _C is None or not _SANDBOX:
        raise OSError("a zygote needs the sandbox and ctypes")
    ctypes, libc = _C
    unshare, mount_call, prctl, capset = libc.unshare, libc.mount, libc.prctl, libc.capset
    unshare.restype = mount_call.restype = capset.restype = ctypes.c_int
    unshare.argtypes = [ctypes.c_int]
    mount_call.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong, ctypes.c_char_p]

    check, write = _checker(ctypes.get_errno), _write_file
    for folder in folders + [mount]:
        if not (folder + "/").startswith(_ROOT + "/") or folder == _ROOT:
            raise OSError("%s is not in the zygote's folder" % folder)
    uid, gid = os.getuid(), os.getgid()
    if _set_dumpable is not None:
        _set_dumpable(1)
    check(unshare(_CLONE_NEWUSER), "a user namespace")
    write("/proc/self/setgroups", b"deny")
    write("/proc/self/uid_map", ("%d %d 1" % (uid, uid)).encode("ascii"))
    write("/proc/self/gid_map", ("%d %d 1" % (gid, gid)).encode("ascii"))
    check(unshare(_CLONE_NEWNS), "a mount namespace")
    fds = [os.open(folder, _O_PATH) for folder in folders]
    root = _path_bytes(_ROOT)
    check(mount_call(b"tmpfs", root, b"tmpfs", _MS_NOSUID | _MS_NODEV, b"mode=0755,size=1048576"), "tmpfs " + _ROOT)
    shown = _MS_REMOUNT | _MS_BIND | _MS_RDONLY | _MS_NOSUID | _MS_NODEV
    for folder, fd in zip(folders, fds):
        if not os.path.isdir(folder):
            os.makedirs(folder, 0o755)
        source = ("/proc/self/fd/%d" % fd).encode()
        check(mount_call(source, _path_bytes(folder), None, _MS_BIND | _MS_REC, None), "bind " + folder)
        os.close(fd)
        if mount_call(None, _path_bytes(folder), None, shown, None) != 0 and not _read_only(folder):
            raise OSError(ctypes.get_errno(), "read-only " + folder)
    if not os.path.isdir(mount):
        os.makedirs(mount, 0o755)
    check(mount_call(b"tmpfs", _path_bytes(mount), b"tmpfs", _MS_NOSUID | _MS_NODEV, _SCRATCH), "tmpfs " + mount)
    # Nothing a run writes in the root outlives it (its own folders are its own tmpfs).
    check(mount_call(None, root, None, shown, None), "read-only " + _ROOT)
    os.chdir(mount)
    check(_no_capabilities(ctypes, prctl, capset), "capabilities")
    # What a run leaves is this server's to kill and reap, not the zygote's.
    check(prctl(36, 1, 0, 0, 0), "a subreaper")  # PR_SET_CHILD_SUBREAPER
    if _set_dumpable is not None:
        _set_dumpable(0)
    _HIDDEN[:] = [_ROOT, _MOUNT]
    _MOUNT = mount
    _fresh = _fresh_maker(_C)
    if _fresh is None:
        raise OSError("a run cannot have namespaces of its own here")


# ==============================================================================================
# 10. The C library, through ctypes: the calls Python does not make as the server needs
# them. Each maker returns None (or False) where it cannot, and the server does without.
# ==============================================================================================

def _c_library():
    """ctypes and the C library (errno kept), for the calls Python does not make as the server
    needs them; None where ctypes cannot load it."""
    try:
        import ctypes

        return ctypes, ctypes.CDLL(None, use_errno=True)
    except Exception:
        return None


def _raw_fork():
    """fork(2) itself, or None where ctypes cannot call it. Unlike os.fork, it leaves out the
    interpreter's work in the child after a fork (its thread and lock state made anew, and
    the callbacks modules registered: threading's bookkeeping, random's reseeding), which
    would copy hundreds of pages of the memory the child shares with the server. The server
    runs one thread and holds no lock when it forks, so that work has nothing to do, and
    random is seeded before the fork instead."""
    try:
        import ctypes

        libc = ctypes.PyDLL(None, use_errno=True)
        call = libc.fork
        call.restype = ctypes.c_int
        call.argtypes = []
        get_errno = ctypes.get_errno
    except Exception:
        return None

    def fork():
        pid = call()
        if pid < 0:
            number = get_errno()
            raise OSError(number, os.strerror(number))
        return pid

    return fork


# close_range(2)'s system call number, the same on every machine the server may run on.
_CLOSE_RANGE_MACHINES = ("x86_64", "aarch64", "riscv64", "i686", "i386", "armv7l")
_CLOSE_RANGE = 436 if os.uname()[4] in _CLOSE_RANGE_MACHINES else None


def _close_range_call(c):
    """close_range(2) through ctypes (os.closerange closes descriptors one by one up to the
    number it is given, in Python 2 and in older 3s), or None where the kernel or ctypes lacks
    it. Each run's child then closes what it inherited, at any number, in two calls, and the
    server no longer lists its open descriptors before each fork."""
    number = _CLOSE_RANGE
    if c is None or number is None:
        return None
    ctypes, libc = c
    try:
        call = libc["syscall"]
        call.restype = ctypes.c_long
        call.argtypes = [ctypes.c_long, ctypes.c_uint, ctypes.c_uint, ctypes.c_uint]
        # Descriptors none of which is open: the call succeeds where the kernel has it.
        if call(number, 1 << 30, 1 << 30, 0) != 0:
            return None
    except Exception:
        return None

    def close_range(first, last):
        return call(number, first, last, 0) == 0

    return close_range


def _c_stdio_unbuffering(c):
    """What the interpreter does to C's stdin, stdout and stderr at start-up under
    PYTHONUNBUFFERED (setvbuf(3) with _IONBF; Python 2's file objects write through them), or
    None where ctypes cannot call it."""
    if c is None:
        return None
    ctypes, libc = c
    try:
        setvbuf = libc.setvbuf
        setvbuf.restype = ctypes.c_int
        setvbuf.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int, ctypes.c_size_t]
        files = [ctypes.c_void_p.in_dll(libc, name).value for name in ("stdin", "stdout", "stderr")]
    except Exception:
        return None

    def unbuffer():
        for stream in files:
            setvbuf(stream, None, 2, 8192)  # _IONBF, BUFSIZ

    return unbuffer


def _dumpable_setter(c):
    """prctl(PR_SET_DUMPABLE) through ctypes, or None where it cannot be called. The server is
    not dumpable, so that a program (same user) cannot open its memory through /proc and
    leave something there for every later run to inherit; each child is again, as a fresh
    interpreter is. Called with ints and no argument types or errno (ctypes passes them as C
    ints, widened to the registers' size), the child's one call touches fewer of the
    server's objects: half the time of one with argument types, measured."""
    if c is None:
        return None
    ctypes = c[0]
    try:
        prctl = ctypes.CDLL(None).prctl
        prctl.restype = ctypes.c_int
    except Exception:
        return None

    def set_dumpable(value):
        prctl(4, value, 0, 0, 0)  # PR_SET_DUMPABLE

    return set_dumpable


def _hidden_from_runs(c):
    """In the sandbox: mounts /proc again with hidepid=ptraceable, so that a run sees there only
    processes it may trace (itself: the server is not dumpable), then gives up every capability
    for good (bubblewrap leaves the server CAP_SYS_ADMIN and CAP_SETPCAP for this alone), and
    sets no_new_privs, which the runs' filter needs and which no exec can undo. False when any
    of it could not be done."""
    if c is None:
        return False
    ctypes, libc = c
    try:
        mount = libc.mount
        mount.restype = ctypes.c_int
        mount.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong, ctypes.c_char_p]
        prctl = ctypes.CDLL(None, use_errno=True).prctl
        prctl.restype = ctypes.c_int
        prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]
        capset = libc.capset
        capset.restype = ctypes.c_int
    except Exception:
        return False
    # MS_REMOUNT with the flags bubblewrap mounted it with (nosuid, nodev, noexec).
    hidden = mount(b"proc", b"/proc", None, 32 | 2 | 4 | 8, b"hidepid=ptraceable") == 0
    # /proc/sys read-only (the kernel checks writes there by user, and the runs' user is not
    # root on the host either): bound on itself, then remounted so.
    hidden = hidden and mount(b"/proc/sys", b"/proc/sys", None, 4096 | 16384, None) == 0
    hidden = hidden and mount(None, b"/proc/sys", None, 32 | 4096 | 1 | 2 | 4 | 8, None) == 0
    # A user namespace of the server's own, in which it is the sandbox's user again (bubblewrap
    # made it root of its namespace, to mount /proc: see sandbox.rs): each run's namespace then
    # maps that user to itself, which needs no capability. (Mapping a root, as this does once,
    # needs CAP_SETFCAP, which bubblewrap leaves the server for it alone.)
    hidden = hidden and _own_user_namespace(ctypes, libc)
    dropped = _no_capabilities(ctypes, prctl, capset) == 0
    private = prctl(38, 1, 0, 0, 0) == 0  # PR_SET_NO_NEW_PRIVS
    return hidden and dropped and private and _capabilities_gone()


def _own_user_namespace(ctypes, libc):
    """Leaves the user namespace bubblewrap made for one of its own, mapping the host's user
    the server is (its root's, in bubblewrap's) to itself; false where it cannot."""
    try:
        ids = [_read_all("/proc/self/%s_map" % kind).split()[1] for kind in ("uid", "gid")]
        if libc.unshare(0x10000000) != 0:  # CLONE_NEWUSER
            return False
        for kind, line in (("setgroups", b"deny"), ("uid_map", ids[0] + b" 0 1"), ("gid_map", ids[1] + b" 0 1")):
            f = os.open("/proc/self/" + kind, os.O_WRONLY)
            try:
                os.write(f, line)
            finally:
                os.close(f)
        return True
    except (IOError, OSError, IndexError):
        return False


def _capabilities_gone():
    """Whether the server holds no capability, effective, permitted or bounding."""
    try:
        status = _read_all("/proc/self/status")
    except (IOError, OSError):
        return False
    fields = dict(line.split(b":", 1) for line in status.splitlines() if b":" in line)
    names = (b"CapEff", b"CapPrm", b"CapBnd", b"CapAmb")
    return all(int(fields.get(k, b"1").strip(), 16) == 0 for k in names)


def _filter_installer(c):
    """(install, needed): install() puts the calling process under the runs' system call filter
    (prctl(PR_SET_SECCOMP), through ctypes; no_new_privs is the server's already) and says
    whether it could; None where it cannot be called. needed: whether nimlab gave a filter (it
    gives none where the machine has no seccomp)."""
    try:
        f = open(os.path.join(os.path.dirname(_SELF), "run-filter.bpf"), "rb")
        try:
            data = f.read()
        finally:
            f.close()
    except (IOError, OSError):
        return None, False
    if c is None or not data or len(data) % 8:
        return None, True
    ctypes = c[0]
    try:
        prctl = ctypes.CDLL(None).prctl
        prctl.restype = ctypes.c_int
        buffer = ctypes.create_string_buffer(data, len(data))

        class Program(ctypes.Structure):
            _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

        program = Program(len(data) // 8, ctypes.addressof(buffer))
        address = ctypes.c_void_p(ctypes.addressof(program))
    except Exception:
        return None, True
    if not _SANDBOX:
        # (In the sandbox, set with the capabilities' end.)
        prctl(38, 1, 0, 0, 0)  # PR_SET_NO_NEW_PRIVS

    def install():
        kept = (buffer, program)
        return kept is not None and prctl(22, 2, address, 0, 0) == 0  # PR_SET_SECCOMP, FILTER

    return install, True


def _os_wait4(pid):
    """wait4(2) for one child: its status, user and system time (microseconds), and maximum
    resident set (KiB)."""
    while True:
        try:
            got, status, usage = os.wait4(pid, 0)
            break
        except OSError as e:
            if e.errno != 4:
                raise
    micros = lambda t: int(round(t * 1e6))
    return status, micros(usage.ru_utime), micros(usage.ru_stime), usage.ru_maxrss


def _ctypes_wait4(c):
    """_os_wait4 through ctypes, or None where it cannot be called. os.wait4 imports the
    resource module on every call to make its result, which would keep the server's own
    modules in sys.modules (and so take them out before every fork and put them back after)."""
    if c is None:
        return None
    ctypes, libc = c
    try:
        long = ctypes.c_long

        class Rusage(ctypes.Structure):
            # Two timevals, then ru_maxrss and the thirteen other counters.
            _fields_ = [("times", long * 4), ("maxrss", long), ("rest", long * 13)]

        call = libc.wait4
        call.restype = ctypes.c_int
        call.argtypes = [ctypes.c_int, ctypes.POINTER(ctypes.c_int), ctypes.c_int, ctypes.POINTER(Rusage)]
        status, usage = ctypes.c_int(), Rusage()
        status_p, usage_p, get_errno = ctypes.byref(status), ctypes.byref(usage), ctypes.get_errno
    except Exception:
        return None

    def wait4(pid):
        while call(pid, status_p, 0, usage_p) < 0:
            number = get_errno()
            if number != 4:
                raise OSError(number, os.strerror(number))
        t = usage.times
        return status.value, t[0] * 1000000 + t[1], t[2] * 1000000 + t[3], usage.maxrss

    return wait4


# ==============================================================================================
# 11. Ending the program as the interpreter ends (Py_Finalize, PyErr_Print): called by
# forkserver.py in the child, once the program's code has returned or raised.
# ==============================================================================================

def _trimmed(tb):
    """A traceback from the program on: the server's own frames at its head are left out."""
    while tb is not None and tb.tb_frame.f_code.co_filename == _SELF:
        tb = tb.tb_next
    return tb


def _flush_io():
    """What the interpreter does the moment the program's code returns or raises, before it
    prints the exception or runs exit functions (flush_io, in pythonrun.c): stderr and stdout
    flushed, whatever goes wrong ignored. A program whose exit function ends the process
    (atexit.register(os._exit, 0)) has its output out all the same. Python 2 does it only
    when the program raised (SystemExit included)."""
    for name in ("stderr", "stdout"):
        stream = getattr(sys, name, None)
        try:
            if stream is not None:
                stream.flush()
        except BaseException:
            pass


def _print_exception(etype, value, tb):
    """What PyErr_Print does with an exception that is not SystemExit."""
    tb = _trimmed(tb)
    if PY3 and value is not None:
        value.__traceback__ = tb
    sys.last_type, sys.last_value, sys.last_traceback = etype, value, tb
    if sys.version_info >= (3, 12):
        sys.last_exc = value
    hook = getattr(sys, "excepthook", None)
    if hook is None:
        sys.__excepthook__(etype, value, tb)
    else:
        hook(etype, value, tb)


def _exit_code(value):
    """The exit status a SystemExit asks for, as the interpreter reads it (printing a message
    that is not a number)."""
    code = getattr(value, "code", value)
    if code is None:
        return 0
    if isinstance(code, int):
        # A C long, as the kernel keeps it: its low byte.
        return code & 0xFF if -(1 << 63) <= code < (1 << 63) else 0xFF
    stderr = getattr(sys, "stderr", None)
    if stderr is not None:
        stderr.write("%s" % (code,))
        stderr.write("\n")
    return 1


def _unraisable(obj, error, where=None):
    """PyErr_WriteUnraisable for an exception raised by `obj` (or, in Python 3.13 and later,
    PyErr_FormatUnraisable with `where`)."""
    try:
        name = type(error).__name__
        module = type(error).__module__
        if module not in ("builtins", "exceptions", "__main__"):
            name = module + "." + name
        text = str(error)
        if where is not None and sys.version_info >= (3, 13):
            head = "Exception ignored %s:\n" % where
        else:
            head = "Exception ignored in: %r\n" % (obj,)
        sys.stderr.write("%s%s%s\n" % (head, name, ": " + text if text else ""))
    except BaseException:
        pass


def _flush_std_files(quiet=False):
    """Flushes sys.stdout and sys.stderr as the interpreter does when it ends; false when
    stdout could not be flushed (the interpreter then exits with status 120)."""
    ok = True
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name, None)
        if stream is None:
            continue
        try:
            closed = bool(getattr(stream, "closed", False))
        except BaseException:
            closed = False
        if closed:
            continue
        try:
            stream.flush()
        except BaseException as e:
            if PY3 and name == "stdout" and not quiet:
                _unraisable(stream, e, "on flushing sys.stdout")
            if not PY3 and name == "stdout":
                # What Python 2 prints when it closes a stdout it cannot flush.
                os.write(2, b"close failed in file object destructor:\n"
                         b"sys.excepthook is missing\nlost sys.stderr\n")
            ok = False
    return ok


def _clear_module(d):
    """Empties a module's globals in the interpreter's order (_PyModule_ClearDict)."""
    try:
        for key in list(d):
            if key[:1] == "_" and key[1:2] != "_" and d.get(key) is not None:
                d[key] = None
        for key in list(d):
            if key != "__builtins__" and d.get(key) is not None:
                d[key] = None
    except BaseException:
        pass


def _finish(status, sigint=False):
    """Ends the program as Py_Finalize would, without tearing down the interpreter the server
    built (which would write to every page of memory the child shares with it): threads are
    waited for, exit functions run, the standard streams flushed, the program's modules
    cleared (their objects' finalizers run, their files are flushed), garbage collected."""
    threading = sys.modules.get("threading")
    quiet = threading is _THREADING and _THREADS_QUIET is not None and _THREADS_QUIET()
    if threading is not None and not quiet and hasattr(threading, "_shutdown"):
        try:
            threading._shutdown()
        except BaseException as e:
            _unraisable(threading, e)
    if PY3:
        import atexit

        atexit._run_exitfuncs()
    else:
        exitfunc = getattr(sys, "exitfunc", None)
        if exitfunc is not None:
            del sys.exitfunc
            try:
                exitfunc()
            except SystemExit as e:
                status = _exit_code(e)
            except BaseException:
                sys.stderr.write("Error in sys.exitfunc:\n")
                _print_exception(*sys.exc_info())
        _end_line()
    flushed = _flush_std_files() or not PY3
    # The program may have imported these: their modules are cleared below.
    kill, exit = os.kill, os._exit
    if sigint:
        import _signal

        default = _signal.signal
    for name in ("stdin", "stdout", "stderr"):
        setattr(sys, name, getattr(sys, "__%s__" % name, None))
    _clear_module(_globals)
    # Modules the program imported are cleared too; most programs import none that the
    # server had not, and looking at every module would copy the pages their names are on.
    imported = _imports.mark is None or _module_mark() != _imports.mark
    for name in reversed(list(sys.modules)) if imported else ():
        if name not in _STARTUP and name not in _imports.kept:
            module = sys.modules.get(name)
            d = getattr(module, "__dict__", None)
            if d is not None and d is not _globals:
                _clear_module(d)
    if _gc_enabled():
        _collect(_oldest_to_collect())
    if PY3:
        _flush_std_files(quiet=True)
    if sigint:
        # As the interpreter ends on an unhandled Ctrl-C: killed by SIGINT, or, where it
        # cannot send itself a signal (the system call filter refuses it, as it refuses a
        # fresh interpreter), status 130.
        default(2, 0)
        try:
            kill(os.getpid(), 2)
        except OSError:
            pass
        exit(130)
    exit(status if flushed else 120)


def _threads_quiet(threading):
    """A check, made as a run ends, that threading's shutdown has nothing to do that the
    program could see: no thread but the main one alive, no function registered to run before
    threads are joined, and no exit function registered beyond those the interpreter started
    with (one would find the main thread stopped). The shutdown is then left out: it would only
    run code of the server's memory, copying some thirty pages of it per run (only a finalizer
    run as the program's modules are cleared could tell: it finds the main thread alive). None
    where the check cannot be made (threading not imported at start, or not as 3.7 to 3.12
    have it): the shutdown then always runs. The check reads only what it holds (each object
    it looks at is a page its run copies)."""
    if threading is None:
        return None
    try:
        import _thread

        alive = _thread._count
        before_join = threading._threading_atexits
        locks = threading._shutdown_locks
        own = threading._main_thread._tstate_lock
        exit_functions = sys.modules["atexit"]._ncallbacks
    except (AttributeError, ImportError, KeyError):
        return None
    if alive() or before_join or len(locks) != 1 or own not in locks:
        return None
    at_start = exit_functions()

    def quiet():
        return not alive() and not before_join and exit_functions() == at_start

    return quiet


def _oldest_to_collect():
    """The oldest generation the last garbage collection takes. Without gc.freeze (Python 2.7
    and 3.6) the young ones only: a full collection would copy every page the child shares
    with the server, and cyclic garbage the program kept a long time is then not finalized.
    With it, the oldest holds only what the program made and kept through collections of the
    young ones; when it holds nothing, collecting the young ones is a full collection."""
    if not _FROZEN:
        return 1
    if sys.version_info >= (3, 8) and not gc.get_objects(2):
        return 1
    return 2


def _end_line():
    """Python 2 ends a `print x,` line when the program ends."""
    try:
        if getattr(sys.stdout, "softspace", 0):
            sys.stdout.write("\n")
            sys.stdout.softspace = 0
    except BaseException:
        pass


# ==============================================================================================
# 12. Recursion depth: a forked program runs one frame (or two) deeper than in a fresh
# interpreter, and gets those levels back.
# ==============================================================================================

def _headroom(counter):
    counter[0] += 1
    _headroom(counter)


def _extra_depth():
    """How much deeper the program runs than in a fresh interpreter: exec() at the top of this
    script against the top itself (one frame, and in some versions the call into exec)."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(100)
    try:
        here, there = [0], [0]
        try:
            _headroom(here)
        except RuntimeError:
            pass
        try:
            exec(compile("_headroom(there)", _SELF, "exec"), {"_headroom": _headroom, "there": there})
        except RuntimeError:
            pass
        return max(here[0] - there[0], 0)
    finally:
        sys.setrecursionlimit(limit)


def _recursion(extra):
    """The program gets as many levels of recursion as in a fresh interpreter, and the limit
    it sees and sets is its own."""
    if not extra:
        return
    get, put = sys.getrecursionlimit, sys.setrecursionlimit

    def getrecursionlimit():
        return get() - extra

    def setrecursionlimit(limit):
        put(limit)
        put(limit + extra)

    getrecursionlimit.__doc__ = get.__doc__
    setrecursionlimit.__doc__ = put.__doc__
    put(get() + extra)
    sys.getrecursionlimit = getrecursionlimit
    sys.setrecursionlimit = setrecursionlimit


# ==============================================================================================
# 13. Start: the server's fixed facts, made once and in this order, then serving. _serve
# returns only at the socket's end (the server exits) or in a forked child, which leaves the
# program in _code and _globals for forkserver.py.
# ==============================================================================================

_EXTRA_DEPTH = _extra_depth()
# threading as the interpreter started with it (site's imports may import it), and whether a
# run's end can skip its shutdown (see _threads_quiet).
_THREADING = sys.modules.get("threading")
_THREADS_QUIET = _threads_quiet(_THREADING)
_PRELOADED = _preload()
_PRELOADED_TOPS = frozenset(m.split(".")[0] for m in _PRELOADED)
_imports.kept = _PRELOADED
_fork = _raw_fork() or os.fork
_C = _c_library()
_close_range = _close_range_call(_C)
_wipe = _wiper(_C)
_unbuffer = _c_stdio_unbuffering(_C)
_waitid = getattr(os, "waitid", None)
_wait4 = _ctypes_wait4(_C) or _os_wait4
_set_dumpable = _dumpable_setter(_C)
if _set_dumpable is not None:
    _set_dumpable(0)
# Why no run can be forked here, when one cannot be as separate as a fresh interpreter in a
# sandbox of its own (every run is then refused, and nimlab runs it as a process).
_UNSAFE = None
if _SANDBOX and not _hidden_from_runs(_C):
    _UNSAFE = b"the fork server cannot hide from its runs here"
_install_filter, _filter_needed = _filter_installer(_C)
if _filter_needed and _install_filter is None:
    _UNSAFE = b"the system call filter cannot be applied here"
# The server's own standard streams (kept here, the child's replace them in sys).
_STDIO = (sys.stdin, sys.stdout, sys.stderr)
_ERR = os.dup(2)
_NULL = os.open(os.devnull, os.O_RDWR)
_server = sys.modules["__main__"]
if not _FROZEN:
    # Without gc.freeze the server's objects are at least old: the child's collections of
    # young objects skip them.
    gc.collect()
_fresh = _fresh_maker(_C)
if _SANDBOX and _UNSAFE is None and (_fresh is None or not _fresh_works()):
    _UNSAFE = b"a run cannot have namespaces of its own here"
# The program's recursion limit is set here once, for every child to inherit.
_recursion(_EXTRA_DEPTH)
_program = _zygote() if _ZYGOTE else _serve()
if _program is None:
    os._exit(0)
# A forked child: forkserver.py runs the program at the top of the script, as a fresh interpreter
# would.
_code, _globals = _program
del _program
