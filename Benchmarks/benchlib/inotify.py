"""inotify through libc (ctypes), for the rows that time a file being renamed into place.
"""

import ctypes
import os
import select
import struct


IN_MODIFY, IN_MOVED_TO = 0x2, 0x80


class Inotify:
    """inotify through libc (ctypes): watches on directories, events stamped when read."""

    def __init__(self):
        self.libc = ctypes.CDLL(None, use_errno=True)
        self.fd = self.libc.inotify_init1(os.O_CLOEXEC | os.O_NONBLOCK)
        if self.fd < 0:
            raise OSError(ctypes.get_errno(), "inotify_init1")

    def watch(self, path, mask):
        wd = self.libc.inotify_add_watch(self.fd, path.encode(), mask)
        if wd < 0:
            raise OSError(ctypes.get_errno(), f"inotify_add_watch {path}")
        return wd

    def drain(self):
        while select.select([self.fd], [], [], 0)[0]:
            os.read(self.fd, 65536)

    def read(self):
        """[(wd, mask, name)] of one read (call when select says the fd is readable)."""
        buf, out, i = os.read(self.fd, 65536), [], 0
        while i < len(buf):
            wd, mask, _, length = struct.unpack_from("iIII", buf, i)
            out.append((wd, mask, buf[i + 16:i + 16 + length].rstrip(b"\0").decode()))
            i += 16 + length
        return out

    def close(self):
        os.close(self.fd)
