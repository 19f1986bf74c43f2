/* atomic.c - rewriting a file so that a failure never loses its contents,
 * and so that what replaces it is the same file to everyone else: the same
 * owner, group and mode, and a symbolic link still a link to it. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

/* As many links as Linux follows in one path before ELOOP. */
#define MAX_LINKS 40

/* The target of the link at `link` (whose lstat size is `size`), relative
 * to the link's directory when it is not absolute; NULL with errno. */
static char *link_target(const char *link, off_t size)
{
	size_t cap = size > 0 ? (size_t)size + 1 : 256;
	for (;;) {
		char *t = hg_try_malloc(cap);
		if (!t) {
			errno = ENOMEM;
			return NULL;
		}
		ssize_t n = readlink(link, t, cap);
		if (n < 0) {
			int saved = errno;
			free(t);
			errno = saved;
			return NULL;
		}
		if ((size_t)n < cap) {
			t[n] = '\0';
			const char *slash = strrchr(link, '/');
			if (t[0] == '/' || !slash)
				return t;
			hg_buf b;
			hg_buf_init(&b);
			hg_buf_putn(&b, link, (size_t)(slash - link) + 1);
			hg_buf_puts(&b, t);
			free(t);
			if (hg_buf_failed(&b)) {
				hg_buf_free(&b);
				errno = ENOMEM;
				return NULL;
			}
			return hg_buf_steal(&b);
		}
		free(t);	/* the link grew since lstat */
		cap *= 2;
	}
}

static char *rewrite_target(const char *path)
{
	char *cur = hg_try_strdup(path);
	if (!cur) {
		errno = ENOMEM;
		return NULL;
	}
	for (int hops = 0; hops <= MAX_LINKS; hops++) {
		struct stat st;
		if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
			return cur;	/* a file, or none yet: written here */
		char *next = link_target(cur, st.st_size);
		free(cur);
		if (!next)
			return NULL;
		cur = next;
	}
	free(cur);
	errno = ELOOP;
	return NULL;
}

/* The attributes of the file `name` in dirfd (AT_FDCWD: a path), its
 * links followed or not (fstatat's flags), given to fd. */
static int give_attributes(int fd, int dirfd, const char *name, int flags)
{
	struct stat old;
	if (fstatat(dirfd, name, &old, flags) != 0) {
		mode_t mask = umask(0);
		umask(mask);
		return fchmod(fd, 0666 & ~mask);
	}
	/* Only root gives a file away; anyone may give it a group they are
	 * in.  What cannot be kept is left as it is (the writer's). */
	if (fchown(fd, old.st_uid, old.st_gid) != 0)
		(void)fchown(fd, (uid_t)-1, old.st_gid);
	struct stat now;
	if (fstat(fd, &now) != 0)
		return -1;
	mode_t mode = old.st_mode & 07777;
	/* A setuid or setgid file must not become the writer's own. */
	if (now.st_uid != old.st_uid)
		mode &= ~(mode_t)S_ISUID;
	if (now.st_gid != old.st_gid)
		mode &= ~(mode_t)S_ISGID;
	return fchmod(fd, mode);
}

/* A unit of its own (HG_OWN_UNIT): NULL with ENOMEM wherever it is called. */
char *hg_rewrite_target(const char *path)
{
	char *t;
	HG_OWN_UNIT(t = rewrite_target(path));
	return t;
}

int hg_rewrite_attributes(int fd, const char *target)
{
	return give_attributes(fd, AT_FDCWD, target, 0);
}

int hg_rewrite_attributes_at(int fd, int dirfd, const char *name)
{
	return give_attributes(fd, dirfd, name, AT_SYMLINK_NOFOLLOW);
}

int hg_atomic_names_make(hg_atomic_names *n, const char *path)
{
	n->tmp = NULL;
	n->target = hg_rewrite_target(path);
	if (!n->target)
		return -1;
	hg_buf tmp;
	hg_buf_init(&tmp);
	hg_buf_printf(&tmp, "%s.herald-XXXXXX", n->target);
	if (hg_buf_failed(&tmp)) {
		hg_buf_free(&tmp);
		hg_atomic_names_free(n);
		errno = ENOMEM;
		return -1;
	}
	n->tmp = hg_buf_steal(&tmp);
	return 0;
}

void hg_atomic_names_free(hg_atomic_names *n)
{
	free(n->target);
	free(n->tmp);
	n->target = n->tmp = NULL;
}

int hg_atomic_write(hg_atomic_names *n, const char *data, size_t len)
{
	int fd = mkstemp(n->tmp);
	if (fd < 0)
		return -1;
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
	if (!saved && hg_rewrite_attributes(fd, n->target) != 0)
		saved = errno;
	if (!saved && fsync(fd) != 0)
		saved = errno;
	if (close(fd) != 0 && !saved)
		saved = errno;
	if (!saved && rename(n->tmp, n->target) != 0)
		saved = errno;
	if (saved)
		unlink(n->tmp);
	errno = saved;
	return saved ? -1 : 0;
}

int hg_write_file_atomic(const char *path, const char *data, size_t len)
{
	hg_atomic_names n;
	int made;
	HG_OWN_UNIT(made = hg_atomic_names_make(&n, path));
	if (made != 0)
		return -1;	/* (errno ENOMEM short of memory) */
	int rc = hg_atomic_write(&n, data, len);
	int saved = errno;
	hg_atomic_names_free(&n);
	errno = saved;
	return rc;
}
