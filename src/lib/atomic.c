/* atomic.c - rewriting a file so that a failure never loses its contents. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

int hg_write_file_atomic(const char *path, const char *data, size_t len)
{
	hg_buf tmp;
	hg_buf_init(&tmp);
	hg_buf_printf(&tmp, "%s.herald-XXXXXX", path);

	struct stat st;
	mode_t mode;
	if (stat(path, &st) == 0) {
		mode = st.st_mode & 07777;
	} else {
		mode_t mask = umask(0);
		umask(mask);
		mode = 0666 & ~mask;
	}

	int fd = mkstemp(tmp.data);
	if (fd < 0) {
		hg_buf_free(&tmp);
		return -1;
	}
	int saved = 0;
	size_t off = 0;
	while (off < len) {
		ssize_t w = write(fd, data + off, len - off);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			saved = errno;
			break;
		}
		off += (size_t)w;
	}
	if (!saved && fchmod(fd, mode) != 0)
		saved = errno;
	if (!saved && fsync(fd) != 0)
		saved = errno;
	if (close(fd) != 0 && !saved)
		saved = errno;
	if (!saved && rename(tmp.data, path) != 0)
		saved = errno;
	if (saved) {
		unlink(tmp.data);
		hg_buf_free(&tmp);
		errno = saved;
		return -1;
	}
	hg_buf_free(&tmp);
	return 0;
}
