/* maildir.c - the Maildir protocol (a file written whole in tmp/, then
 * linked into new/ under a name no other delivery takes): the judge's
 * replies (--out), and the incoming message kept in failed/. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "judge.h"

int judge_maildir_make(const char *dir)
{
	static const char *const subdirs[] = { "", "/tmp", "/new", "/cur" };
	hg_buf path;
	hg_buf_init(&path);
	int rc = 0;
	for (size_t i = 0; i < 4 && rc == 0; i++) {
		hg_buf_clear(&path);
		hg_buf_printf(&path, "%s%s", dir, subdirs[i]);
		if (hg_buf_failed(&path)) {
			errno = ENOMEM;	/* (never a directory of a path cut short) */
			rc = -1;
		} else if (mkdir(path.data, 0700) != 0 && errno != EEXIST) {
			rc = -1;
		}
	}
	hg_buf_free(&path);
	return rc;
}

/* A name no other delivery takes (the Maildir convention: seconds, then
 * microseconds, process and a counter, then the host). */
static void unique_name(hg_buf *out)
{
	static unsigned long counter;
	struct timeval tv;
	gettimeofday(&tv, NULL);
	char host[256] = "localhost";
	if (gethostname(host, sizeof host - 1) != 0)
		strcpy(host, "localhost");
	host[sizeof host - 1] = '\0';
	for (char *h = host; *h; h++)
		if (*h == '/' || *h == ':')
			*h = '_';
	hg_buf_printf(out, "%lld.M%06ldP%ldQ%lu.%s", (long long)tv.tv_sec, (long)tv.tv_usec,
		      (long)getpid(), ++counter, host);
}

static int write_all(int fd, const char *data, size_t len)
{
	while (len > 0) {
		ssize_t w = write(fd, data, len);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		data += w;
		len -= (size_t)w;
	}
	return 0;
}

/* Opens a new file in dir/tmp/ (O_EXCL): the fd, or -1 with errno set;
 * *base gets its name. */
static int open_tmp(const char *dir, hg_buf *base, hg_buf *tmp)
{
	int fd = -1;
	for (int tries = 0; tries < 10 && fd < 0; tries++) {
		hg_buf_clear(base);
		hg_buf_clear(tmp);
		unique_name(base);
		hg_buf_printf(tmp, "%s/tmp/%s", dir, base->data ? base->data : "");
		if (hg_buf_failed(base) || hg_buf_failed(tmp)) {
			errno = ENOMEM;
			return -1;
		}
		fd = open(tmp->data, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	return fd;
}

/* Moves dir/tmp/base into dir/new/ (link, then unlink: a name already in
 * new/ is never replaced). */
static int tmp_to_new(const char *dir, const char *base)
{
	hg_buf tmp, final;
	hg_buf_init(&tmp);
	hg_buf_init(&final);
	hg_buf_printf(&tmp, "%s/tmp/%s", dir, base);
	hg_buf_printf(&final, "%s/new/%s", dir, base);
	if (hg_buf_failed(&tmp) || hg_buf_failed(&final)) {
		hg_buf_free(&tmp);
		hg_buf_free(&final);
		errno = ENOMEM;	/* (the file stays in tmp/) */
		return -1;
	}
	int rc = link(tmp.data, final.data);
	int saved = errno;
	unlink(tmp.data);
	hg_buf_free(&tmp);
	hg_buf_free(&final);
	errno = saved;
	return rc;
}

int judge_maildir_deliver(const char *dir, const char *data, size_t len, char **name)
{
	if (judge_maildir_make(dir) != 0)
		return -1;
	hg_buf base, tmp;
	hg_buf_init(&base);
	hg_buf_init(&tmp);
	int rc = -1;
	int fd = open_tmp(dir, &base, &tmp);
	if (fd >= 0) {
		int saved = 0;
		if (write_all(fd, data, len) != 0 || fsync(fd) != 0)
			saved = errno;
		if (close(fd) != 0 && !saved)
			saved = errno;
		if (saved) {
			unlink(tmp.data);
			errno = saved;
		} else if (tmp_to_new(dir, base.data) == 0) {
			rc = 0;
			if (name && !(*name = hg_buf_steal(&base)))
				rc = -1;	/* (delivered; only its name is lost) */
		}
	}
	hg_buf_free(&base);
	hg_buf_free(&tmp);
	return rc;
}

int judge_maildir_spool(const char *dir, int in, size_t max, char **base_out, int *truncated)
{
	*truncated = 0;
	if (judge_maildir_make(dir) != 0)
		return -1;
	hg_buf base, tmp;
	hg_buf_init(&base);
	hg_buf_init(&tmp);
	int fd = open_tmp(dir, &base, &tmp);
	int saved = fd < 0 ? errno : 0;
	size_t total = 0;
	char chunk[65536];
	while (!saved) {
		ssize_t got = read(in, chunk, sizeof chunk);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			saved = errno;
			break;
		}
		if (got == 0)
			break;
		size_t keep = (size_t)got;
		if (total + keep > max) {
			keep = max - total;
			*truncated = 1;	/* the rest is read and dropped */
		}
		if (keep && write_all(fd, chunk, keep) != 0)
			saved = errno;
		total += keep;
	}
	if (fd >= 0 && !saved && fsync(fd) != 0)
		saved = errno;
	if (fd >= 0 && close(fd) != 0 && !saved)
		saved = errno;
	if (saved) {
		if (fd >= 0)
			unlink(tmp.data);
		hg_buf_free(&base);
		hg_buf_free(&tmp);
		errno = saved;
		return -1;
	}
	*base_out = hg_buf_steal(&base);
	if (!*base_out)
		unlink(tmp.data);
	hg_buf_free(&tmp);
	if (!*base_out) {
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

int judge_maildir_keep(const char *dir, const char *base)
{
	return tmp_to_new(dir, base);
}

void judge_maildir_drop(const char *dir, const char *base)
{
	hg_buf tmp;
	hg_buf_init(&tmp);
	hg_buf_printf(&tmp, "%s/tmp/%s", dir, base);
	if (!hg_buf_failed(&tmp))
		unlink(tmp.data);	/* (else left in tmp/, which Maildir readers clean) */
	hg_buf_free(&tmp);
}
