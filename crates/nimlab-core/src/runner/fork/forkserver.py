_INIT = dict(globals())
import sys
_STARTUP = frozenset(sys.modules)
import os

# The script nimlab's fork server starts as (src/runner/fork/mod.rs): the server itself is
# forkserver_body.py, beside it. Compiling that much source would leave the server megabytes
# larger for good (what the compiler frees stays mapped), and every page of it is copied into
# each forked child's page tables and torn down when the child ends: the server's code is
# compiled in a short-lived child of this process instead, and only the code comes back.
# A forked child returns here to run the program at the top of the script, as a fresh
# interpreter runs it.

_SELF = sys._getframe().f_code.co_filename


def _server_code():
    """The server's code. nimlab passes, as the third argument, either a file holding it as an
    earlier server of the same interpreter compiled it (loaded here, if it is this
    interpreter's), or "send": compiled, it is then sent to nimlab (B), for the next servers."""
    import marshal

    path = os.path.join(os.path.dirname(_SELF), "forkserver_body.py")
    kept = sys.argv[3] if len(sys.argv) > 3 else ""
    tag = ("%s %x" % (sys.version, sys.hexversion)).encode("utf-8")
    if kept and kept != "send":
        code = _kept_code(marshal, kept, tag)
        if code is not None:
            return code
    f = open(path, "rb")
    source = f.read()
    f.close()
    data = _compiled_in_child(marshal, source, path)
    if kept == "send":
        # (Always answered, if with nothing: nimlab waits for it.)
        _send_code(tag + b"\0" + data if data is not None else b"")
    if data is None:
        # (No child to compile it: compiled here, the server is only larger.)
        return compile(source, path, "exec", 0, True)
    return marshal.loads(data)


def _kept_code(marshal, kept, tag):
    """The code in nimlab's file `kept`, or None if it is not this interpreter's or cannot be
    read."""
    try:
        f = open(kept, "rb")
        try:
            data = f.read()
        finally:
            f.close()
        head, _, body = data.partition(b"\0")
        if head != tag:
            return None
        return marshal.loads(body)
    except Exception:
        return None


def _send_code(payload):
    try:
        os.write(0, b"B\0" + payload)
    except OSError:
        pass


def _compiled_in_child(marshal, source, path):
    """The server's code compiled and marshalled by a child of this process, or None."""
    try:
        r, w = os.pipe()
    except OSError:
        return None
    try:
        pid = os.fork()
    except OSError:
        os.close(r)
        os.close(w)
        return None
    if pid == 0:
        status = 1
        try:
            os.close(r)
            data = marshal.dumps(compile(source, path, "exec", 0, True))
            while data:
                data = data[os.write(w, data) :]
            status = 0
        finally:
            os._exit(status)
    os.close(w)
    chunks = []
    while True:
        try:
            chunk = os.read(r, 1 << 16)
        except OSError as e:
            if e.errno == 4:
                continue
            raise
        if not chunk:
            break
        chunks.append(chunk)
    os.close(r)
    while True:
        try:
            status = os.waitpid(pid, 0)[1]
            break
        except OSError as e:
            if e.errno != 4:
                raise
    return b"".join(chunks) if status == 0 else None


# Runs the server; it returns only in a forked child, with the program in _code and _globals.
# (The code is held here: freed when the child returns, it would write to every page holding
# the constants it refers to.)
_SERVER = _server_code()
exec(_SERVER, globals())
if not PY3:
    sys.exc_clear()
_sigint = False
try:
    exec(_code, _globals)
except SystemExit:
    _flush_io()
    _status = _exit_code(sys.exc_info()[1])
except BaseException:
    _flush_io()
    _etype, _value, _tb = sys.exc_info()
    _print_exception(_etype, _value, _tb)
    _sigint = PY3 and sys.version_info >= (3, 8) and issubclass(_etype, KeyboardInterrupt)
    del _etype, _value, _tb
    _status = 1
else:
    if PY3:
        # (Python 2 flushes here only on an exception or SystemExit: a program ended by an
        # exit function loses what it left in stdout's buffer, forked or fresh.)
        _flush_io()
    _status = 0
_finish(_status, _sigint)
