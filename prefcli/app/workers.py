"""The worker processes of :class:`prefcli.app.executors.LocalProcesses` and what decides
when to start them: a worker forked with ``os.fork`` and fed over pipes of its own
(:class:`_Forked`), the same over ``multiprocessing`` where the system cannot fork
(:class:`_Spawned`), the loop every worker runs (:func:`_serve`), and the measure of idle
cores that ``settle --jobs N`` forks by (:class:`IdleProbe`); and :class:`Sealed`, a result
that crosses a worker's pipe pickled, to be opened only if its parent needs it."""
from __future__ import annotations

import gc
import os
import time
from typing import Any, Callable, List, Optional, Sequence, Tuple


class Sealed:
    """An object a worker sends back that its parent seldom needs: pickled once, where it was
    made, and unpickled only when :meth:`open` asks for it (in the process that made it,
    nothing is ever pickled). The streamed table sends each input's whole result this way,
    for the one case where a lone input prints its own table."""

    __slots__ = ("_obj", "_data")

    def __init__(self, obj: Any = None, data: Optional[bytes] = None) -> None:
        self._obj = obj
        self._data = data

    def open(self) -> Any:
        if self._data is not None:
            import pickle
            self._obj, self._data = pickle.loads(self._data), None
        return self._obj

    def __reduce__(self) -> Any:
        import pickle
        data = self._data if self._data is not None else pickle.dumps(self._obj, pickle.HIGHEST_PROTOCOL)
        return (Sealed, (None, data))


def worker_init() -> None:
    """A worker process: no cyclic GC (see settle_many), and Ctrl-C left to the parent, which
    stops the pool and exits 130: no KeyboardInterrupt traceback from every worker."""
    import signal
    gc.disable()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for name in ("SIGTERM", "SIGHUP"):           # the parent's handlers end a command, not a worker
        if hasattr(signal, name) and signal.getsignal(getattr(signal, name)) not in (signal.SIG_DFL, signal.SIG_IGN):
            signal.signal(getattr(signal, name), signal.SIG_DFL)


_HEAD = 8                               # a message on a worker's pipe: its length (8 bytes), then its pickle
_READ = 1 << 16                         # a pipe's buffer: what one read can take


def _serve(recv: Callable[[], Optional[bytes]], send: Callable[[bytes], None]) -> None:
    """A worker of :class:`LocalProcesses`: chunks in, each chunk's results out, until told to
    stop (an empty message) or its parent is gone (the pipe closed)."""
    import pickle
    worker_init()
    while True:
        try:
            msg = recv()
        except (EOFError, OSError):
            return
        if not msg:
            return
        index, func, chunk = pickle.loads(msg)
        reply: Tuple[int, bool, Any, float]     # and the CPU this worker has used so far
        try:
            reply = (index, True, [func(x) for x in chunk], time.process_time())
        except BaseException as exc:  # noqa: BLE001 - raised again in the parent, as a pool does
            reply = (index, False, exc, time.process_time())
        try:
            data = pickle.dumps(reply, pickle.HIGHEST_PROTOCOL)
        except Exception as exc:  # noqa: BLE001 - a result that does not pickle
            data = pickle.dumps((index, False, RuntimeError(f"a worker could not send its result back: {exc!r}"),
                                 time.process_time()), pickle.HIGHEST_PROTOCOL)
        try:
            send(data)
        except (EOFError, OSError):
            return


def _read_exactly(fd: int, n: int) -> bytes:
    parts = []
    while n:
        b = os.read(fd, min(n, _READ))
        if not b:
            raise EOFError
        parts.append(b)
        n -= len(b)
    return b"".join(parts)


class _Forked:
    """A worker made with ``os.fork``, fed over two pipes of its own (``os.pipe``: commands in,
    replies out). Why not ``multiprocessing``: importing it, its connection layer and its
    process objects cost a process that forks once about 10 ms of CPU (1 % of a 1,000-input
    batch), and a machine where the batch's processes share one core gets nothing back for it.

    The parent never blocks writing (its ends are non-blocking: what the pipe cannot take
    waits in :attr:`outbuf` until :meth:`LocalProcesses._collect` finds room), so a large
    command and a large reply can never wait on each other. The worker dies with its parent:
    the parent's ends closed (on exit, or a kill) are an end of file to a waiting worker and a
    broken pipe to a busy one."""

    __slots__ = ("pid", "cmd", "reply", "inbuf", "outbuf", "load", "cpu", "code")

    def __init__(self, others: Sequence["_Forked"]) -> None:
        cmd_r, cmd_w = os.pipe()
        reply_r, reply_w = os.pipe()
        try:
            pid = os.fork()
        except BaseException:
            for fd in (cmd_r, cmd_w, reply_r, reply_w):
                os.close(fd)
            raise
        if pid == 0:                    # the worker: never returns into its parent's code
            code = 0
            try:
                os.close(cmd_w)
                os.close(reply_r)
                for w in others:        # the parent's ends of earlier workers' pipes, inherited
                    w._close_fds()

                def recv() -> Optional[bytes]:
                    head = os.read(cmd_r, _HEAD)
                    if not head:
                        return None
                    if len(head) < _HEAD:
                        head += _read_exactly(cmd_r, _HEAD - len(head))
                    return _read_exactly(cmd_r, int.from_bytes(head, "little"))

                def send(data: bytes) -> None:
                    view = memoryview(len(data).to_bytes(_HEAD, "little") + data)
                    while view:
                        view = view[os.write(reply_w, view):]

                _serve(recv, send)
            except BaseException:  # noqa: BLE001 - a worker's own failure: its exit status says so
                code = 1
            finally:
                os._exit(code)
        os.close(cmd_r)
        os.close(reply_w)
        os.set_blocking(cmd_w, False)
        self.pid = pid
        self.cmd = cmd_w
        self.reply = reply_r
        self.inbuf = bytearray()
        self.outbuf = bytearray()
        self.load = 0                   # chunks it holds
        self.cpu = 0.0                  # the CPU it had used at its last reply (s)
        self.code: Optional[int] = None

    def _close_fds(self) -> None:
        for fd in (self.cmd, self.reply):
            if fd >= 0:
                os.close(fd)
        self.cmd = self.reply = -1

    def post(self, data: bytes) -> None:
        self.outbuf += len(data).to_bytes(_HEAD, "little")
        self.outbuf += data
        self.flush()

    def flush(self) -> None:
        """As much of what waits to be sent as the pipe takes now."""
        try:
            while self.outbuf:
                del self.outbuf[:os.write(self.cmd, self.outbuf)]
        except BlockingIOError:
            pass

    def take(self) -> List[bytes]:
        """What has come back (one read): every whole reply in it. EOFError: the worker is gone."""
        data = os.read(self.reply, _READ)
        if not data:
            raise EOFError
        buf = self.inbuf
        buf += data
        out = []
        while len(buf) >= _HEAD:
            end = _HEAD + int.from_bytes(buf[:_HEAD], "little")
            if len(buf) < end:
                break
            out.append(bytes(buf[_HEAD:end]))
            del buf[:end]
        return out

    def stop(self, kill: bool = True) -> None:
        self._close_fds()
        if self.code is None:
            if kill:
                try:
                    import signal
                    os.kill(self.pid, signal.SIGTERM)
                except OSError:
                    pass
            self.wait()

    def wait(self) -> int:
        if self.code is None:
            while True:
                try:
                    _, status = os.waitpid(self.pid, 0)
                    break
                except InterruptedError:
                    continue
                except ChildProcessError:
                    status = 0
                    break
            self.code = os.waitstatus_to_exitcode(status)
        return self.code


class _Spawned:
    """A worker where the system cannot fork (``multiprocessing``'s own way: spawned, a
    connection each way); the same messages as :class:`_Forked`."""

    __slots__ = ("proc", "conn", "load", "cpu", "outbuf")

    def __init__(self, others: Sequence["_Spawned"]) -> None:
        import multiprocessing
        ctx = multiprocessing.get_context()
        mine, theirs = ctx.Pipe(duplex=True)
        self.proc = ctx.Process(target=_serve_connection, args=(theirs,), daemon=True)
        self.proc.start()
        theirs.close()
        self.conn = mine
        self.load = 0
        self.cpu = 0.0
        self.outbuf = b""

    def post(self, data: bytes) -> None:
        self.conn.send_bytes(data)

    def flush(self) -> None:
        pass

    def take(self) -> List[bytes]:
        return [self.conn.recv_bytes()]

    def stop(self, kill: bool = True) -> None:
        if self.proc.is_alive():
            self.proc.terminate()
        self.proc.join()
        self.conn.close()

    def wait(self) -> int:
        self.proc.join(1)
        return self.proc.exitcode if self.proc.exitcode is not None else -1


def _serve_connection(conn: Any) -> None:
    """:func:`_serve` over a ``multiprocessing`` connection (a spawned worker)."""
    def recv() -> Optional[bytes]:
        return bytes(conn.recv_bytes())
    _serve(recv, conn.send_bytes)


class IdleProbe:
    """How many cores sat idle while this process worked, measured between readings of the
    system's idle time (``/proc/uptime``: every CPU's idle time, summed, to 10 ms).

    Why: the kernel shares the cores between sessions first, so when another program holds a
    core, a second process of ``settle --jobs 2`` shares the core its parent had, gets nothing
    done that the parent would not have, and costs its own start and the results' transfer on
    top (``--jobs 2`` was 4 % slower than one job). While the parent settles its first inputs,
    a core left idle all that time is what a worker would run on: measured, not guessed from
    the load average or the CPU count."""

    #: the shortest reading that decides (a few of /proc/uptime's 10 ms steps)
    SPAN = 0.03

    def __init__(self, path: str = "/proc/uptime", clock: Callable[[], float] = time.monotonic) -> None:
        self.path = path
        self._clock = clock
        self._at = clock()
        self._idle = self._read()

    def _read(self) -> Optional[float]:
        try:
            with open(self.path, "rb") as fh:
                return float(fh.read().split()[1])
        except (OSError, ValueError, IndexError):
            return None

    def idle_cores(self) -> Optional[float]:
        """Cores idle on average since the last reading that decided; None while that is
        shorter than :attr:`SPAN`; infinity where the system does not say (start the workers:
        the way before this measure)."""
        now = self._clock()
        if self._idle is None:
            return float("inf")
        if now - self._at < self.SPAN:
            return None
        idle = self._read()
        if idle is None or idle < self._idle:
            return float("inf")
        cores = (idle - self._idle) / (now - self._at)
        self._at, self._idle = now, idle
        return cores
