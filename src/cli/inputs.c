/* inputs.c - from FILE... operands to games: "-" is standard input, a
 * directory stands for the *.hgn files under it, and each file, whatever
 * its format, is read as a sequence of records. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/* Directories nested deeper than this are not entered (a loop of bind
 * mounts must not recurse for ever; symbolic links are not followed). */
#define MAX_DIR_DEPTH 64

/* Appends path; a walked file's `root` is the index of the directory
 * operand it was found under (its fd in in->root_fds) and `rel` the offset
 * in path of its name relative to that directory; an operand's root is -1. */
static void push(cli_inputs *in, char *path, long root, size_t rel)
{
	if (in->n == in->cap) {
		in->cap = in->cap ? 2 * in->cap : 16;
		in->paths = cli_xrealloc(in->paths, in->cap * sizeof *in->paths);
		in->walked = cli_xrealloc(in->walked, in->cap * sizeof *in->walked);
	}
	in->walked[in->n].root = root;
	in->walked[in->n].rel = rel;
	in->paths[in->n++] = path;
}

/* The parser's code for the same failures, so that a file reads the same
 * whoever opens it. */
static void io_diag(hg_diags *d, const char *path, const char *what, int err)
{
	hg_pos pos = { path, 0, 0 };
	hg_diag_add(d, HG_ERROR, pos, "hgn.io-error", "%s: %s", what, strerror(err));
}

static int has_suffix(const char *name, const char *suffix)
{
	size_t n = strlen(name), k = strlen(suffix);
	return n > k && strcmp(name + n - k, suffix) == 0;
}

typedef struct found {
	char *path;
	cli_walked walked;
} found;

static int by_bytes(const void *a, const void *b)
{
	return strcmp(((const found *)a)->path, ((const found *)b)->path);
}

/* Sorts the files a walk found, from index `from`, by path. */
static void sort_walked(cli_inputs *in, size_t from)
{
	size_t n = in->n - from;
	if (n < 2)
		return;
	found *v = cli_xmalloc(n * sizeof *v);
	for (size_t i = 0; i < n; i++)
		v[i] = (found){ in->paths[from + i], in->walked[from + i] };
	qsort(v, n, sizeof *v, by_bytes);
	for (size_t i = 0; i < n; i++) {
		in->paths[from + i] = v[i].path;
		in->walked[from + i] = v[i].walked;
	}
	free(v);
}

/* Collects the *.hgn files under the directory open at `dirfd` (named
 * `dir`; it is closed here).  Entries whose names start with '.' are
 * skipped (version-control and editor files).  Only regular files and
 * directories are taken: a symbolic link is not followed, wherever it
 * points (out of the tree it could name a secret or /dev/zero; within it,
 * what it names is found under its own name), and a FIFO, socket or device
 * is not read (it could block or never end).  Each entry is looked at
 * relative to dirfd, and a directory entered through openat with
 * O_NOFOLLOW, so that a link swapped in since cannot lead out. */
static size_t walk(cli_inputs *in, int dirfd, const char *dir, long root, size_t rel,
		   unsigned depth, hg_diags *d)
{
	if (depth > MAX_DIR_DEPTH) {
		hg_pos pos = { dir, 0, 0 };
		hg_diag_add(d, HG_ERROR, pos, "hgn.io-error",
			    "directories nested more than %d deep are not searched", MAX_DIR_DEPTH);
		close(dirfd);
		return 1;
	}
	DIR *dp = fdopendir(dirfd);
	if (!dp) {
		io_diag(d, dir, "cannot open the directory", errno);
		close(dirfd);
		return 1;
	}
	size_t problems = 0;
	hg_buf path;
	hg_buf_init(&path);
	struct dirent *e;
	while ((e = readdir(dp)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		hg_buf_clear(&path);
		size_t dlen = strlen(dir);
		hg_buf_puts(&path, dir);
		if (dlen == 0 || dir[dlen - 1] != '/')
			hg_buf_putc(&path, '/');
		/* the name relative to the operand begins after its slash */
		size_t rel_here = depth == 0 ? path.len : rel;
		hg_buf_puts(&path, e->d_name);
		struct stat st;
		if (fstatat(dirfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
			io_diag(d, path.data, "cannot open the file", errno);
			problems++;
			continue;
		}
		if (S_ISDIR(st.st_mode)) {
			int sub = openat(dirfd, e->d_name,
					 O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (sub < 0) {
				io_diag(d, path.data, "cannot open the directory", errno);
				problems++;
				continue;
			}
			problems += walk(in, sub, path.data, root, rel_here, depth + 1, d);
		} else if (S_ISREG(st.st_mode) && has_suffix(e->d_name, ".hgn")) {
			push(in, cli_xstrdup(path.data), root, rel_here);
		}
	}
	closedir(dp);
	hg_buf_free(&path);
	return problems;
}

size_t cli_inputs_expand(cli_inputs *in, char **operands, int n, hg_diags *d)
{
	size_t problems = 0;
	for (int i = 0; i < n; i++) {
		const char *op = operands[i];
		if (strcmp(op, "-") == 0) {
			push(in, cli_xstrdup(op), -1, 0);
			continue;
		}
		struct stat st;
		if (stat(op, &st) != 0) {
			io_diag(d, op, "cannot open the file", errno);
			problems++;
			continue;
		}
		if (!S_ISDIR(st.st_mode)) {
			push(in, cli_xstrdup(op), -1, 0);
			continue;
		}
		/* The operand is opened as named (links followed: the user
		 * chose it); its fd stays open, and every file found under it
		 * is opened from it (cli_input_open). */
		int fd = open(op, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0) {
			io_diag(d, op, "cannot open the directory", errno);
			problems++;
			continue;
		}
		int keep = fcntl(fd, F_DUPFD_CLOEXEC, 0);
		if (keep < 0) {
			io_diag(d, op, "cannot open the directory", errno);
			close(fd);
			problems++;
			continue;
		}
		in->root_fds = cli_xrealloc(in->root_fds, (in->nroots + 1) * sizeof *in->root_fds);
		long root = (long)in->nroots;
		in->root_fds[in->nroots++] = keep;
		size_t from = in->n;
		problems += walk(in, fd, op, root, 0, 0, d);
		sort_walked(in, from);
	}
	return problems;
}

void cli_inputs_free(cli_inputs *in)
{
	hg_strv_free(in->paths, in->n);
	free(in->walked);
	for (size_t i = 0; i < in->nroots; i++)
		close(in->root_fds[i]);
	free(in->root_fds);
	memset(in, 0, sizeof *in);
}

/* Opens the directories of rel[0..len) from the directory open at
 * `dirfd`, one component at a time and following no link.  A descriptor
 * of the last (a new one: dup(dirfd) when len is 0), or -1 with errno set
 * (ENOTDIR or ELOOP when one is a link or no directory). */
static int open_dirs_beneath(int dirfd, const char *rel, size_t len)
{
	int dir = fcntl(dirfd, F_DUPFD_CLOEXEC, 0);
	const char *end = rel + len;
	while (dir >= 0 && rel < end) {
		const char *slash = memchr(rel, '/', (size_t)(end - rel));
		size_t n = slash ? (size_t)(slash - rel) : (size_t)(end - rel);
		char *part = cli_xstrndup(rel, n);
		int fd = *part ? openat(dir, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
			       : -1;
		int err = *part ? errno : ENOENT;
		free(part);
		close(dir);
		if (fd < 0) {
			errno = err;
			return -1;
		}
		dir = fd;
		rel += n + (slash != NULL);
	}
	return dir;
}

/* Opens `rel` from the directory open at `dirfd`, one component at a time
 * and following no link; the last component must be a regular file.  A
 * descriptor, or -1 with errno set (ELOOP for a link, EISDIR, or EINVAL for
 * anything else that is not a regular file). */
static int open_beneath(int dirfd, const char *rel)
{
	const char *slash = strrchr(rel, '/');
	const char *name = slash ? slash + 1 : rel;
	int dir = open_dirs_beneath(dirfd, rel, (size_t)(name - rel));
	if (dir < 0)
		return -1;
	if (!*name) {
		close(dir);
		errno = EISDIR;
		return -1;
	}
	/* O_NONBLOCK: a FIFO swapped in opens at once, and fstat then
	 * refuses it. */
	int fd = openat(dir, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	int err = errno;
	close(dir);
	if (fd < 0) {
		errno = err;
		return -1;
	}
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		err = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
		close(fd);
		errno = err;
		return -1;
	}
	/* reads then block as on any regular file */
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}

int cli_input_dir_open(const cli_inputs *in, size_t i, const char **name)
{
	const cli_walked *w = &in->walked[i];
	if (w->root < 0) {
		errno = 0;
		return -1;
	}
	const char *rel = in->paths[i] + w->rel;
	const char *slash = strrchr(rel, '/');
	*name = slash ? slash + 1 : rel;
	return open_dirs_beneath(in->root_fds[w->root], rel, (size_t)(*name - rel));
}

int cli_input_open(const cli_inputs *in, size_t i, hg_diags *d)
{
	const char *path = in->paths[i];
	const cli_walked *w = &in->walked[i];
	int fd = w->root < 0 ? open(path, O_RDONLY | O_CLOEXEC)
			     : open_beneath(in->root_fds[w->root], path + w->rel);
	if (fd < 0) {
		hg_pos pos = { path, 0, 0 };
		if (w->root >= 0 && (errno == ELOOP || errno == EINVAL))
			/* it was a regular file when its directory was read */
			hg_diag_add(d, HG_ERROR, pos, "hgn.io-error",
				    "cannot open the file: it is no longer a regular file "
				    "inside the directory (%s)",
				    errno == ELOOP ? "a symbolic link, which is not followed"
						   : "not a regular file");
		else
			io_diag(d, path, "cannot open the file", errno);
		return -1;
	}
	struct stat st;
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		io_diag(d, path, "cannot read the file", EISDIR);
		close(fd);
		return -1;
	}
	return fd;
}

/* Copies standard input to a temporary file (in $TMPDIR, or /tmp) and
 * opens it twice, each handle with its own offset; the file's name is
 * removed at once.  0, or -1 with an hgn.io-error diagnostic. */
static int spool_stdin(FILE **a, FILE **b, hg_diags *d)
{
	const char *dir = getenv("TMPDIR");
	hg_buf name;
	hg_buf_init(&name);
	hg_buf_printf(&name, "%s/herald-stdin-XXXXXX", dir && *dir ? dir : "/tmp");
	int fd = mkstemp(name.data);
	if (fd < 0) {
		io_diag(d, "-", "cannot make a temporary copy of standard input", errno);
		hg_buf_free(&name);
		return -1;
	}
	*a = fdopen(fd, "w+b");
	*b = *a ? fopen(name.data, "rb") : NULL;
	int err = errno;
	unlink(name.data);
	hg_buf_free(&name);
	if (!*a || !*b) {
		io_diag(d, "-", "cannot make a temporary copy of standard input", err);
		if (*a)
			fclose(*a);
		else
			close(fd);
		return -1;
	}
	char chunk[65536];
	size_t got;
	while ((got = fread(chunk, 1, sizeof chunk, stdin)) > 0)
		if (fwrite(chunk, 1, got, *a) != got)
			break;
	err = ferror(stdin) ? errno : 0;
	if (!err && (ferror(*a) || fflush(*a) != 0 || fseek(*a, 0, SEEK_SET) != 0))
		err = errno ? errno : EIO;
	if (err) {
		io_diag(d, "-", ferror(stdin) ? "read error" : "cannot copy standard input", err);
		fclose(*a);
		fclose(*b);
		return -1;
	}
	return 0;
}

/* Reads standard input whole into `out`, refusing more than `max` bytes
 * (a word or an action typed or piped in, never a record). */
int cli_read_stdin_bounded(hg_buf *out, size_t max, hg_diags *d)
{
	char chunk[4096];
	size_t got;
	while ((got = fread(chunk, 1, sizeof chunk, stdin)) > 0) {
		if (out->len + got > max) {
			hg_pos pos = { "-", 0, 0 };
			hg_diag_add(d, HG_ERROR, pos, "hgn.too-long",
				    "standard input is longer than %zu bytes", max);
			return -1;
		}
		hg_buf_putn(out, chunk, got);
	}
	if (ferror(stdin)) {
		io_diag(d, "-", "read error", errno);
		return -1;
	}
	if (!out->data)
		hg_buf_putn(out, "", 0);
	return 0;
}

cli_informat cli_informat_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	const char *dot = strrchr(base, '.');
	if (!dot)
		return CLI_IN_HGN;
	if (strcmp(dot, ".json") == 0)
		return CLI_IN_JSON;
	if (strcmp(dot, ".jsonl") == 0)
		return CLI_IN_JSONL;
	if (strcmp(dot, ".yaml") == 0 || strcmp(dot, ".yml") == 0)
		return CLI_IN_YAML;
	return CLI_IN_HGN;
}

int cli_informat_parse(const char *word)
{
	if (strcmp(word, "hgn") == 0)
		return CLI_IN_HGN;
	if (strcmp(word, "json") == 0)
		return CLI_IN_JSON;
	if (strcmp(word, "jsonl") == 0)
		return CLI_IN_JSONL;
	if (strcmp(word, "yaml") == 0 || strcmp(word, "yml") == 0)
		return CLI_IN_YAML;
	return -1;
}

cli_informat cli_informat_pick(int from, const char *path)
{
	return from >= 0 ? (cli_informat)from : cli_informat_of(path);
}

/* A stream on input i, or NULL (diagnosed). */
static FILE *input_fopen(const cli_inputs *in, size_t i, hg_diags *d)
{
	int fd = cli_input_open(in, i, d);
	if (fd < 0)
		return NULL;
	FILE *fp = fdopen(fd, "rb");
	if (!fp) {
		io_diag(d, in->paths[i], "cannot open the file", errno);
		close(fd);
	}
	return fp;
}

/* 0 when src has its reader, else -1 after the diagnostic the library
 * gives for a reader there was no memory for. */
static int source_opened(const cli_source *src, hg_diags *d)
{
	if (src->parser || src->json || src->yaml)
		return 0;
	hg_diag_add(d, HG_ERROR, (hg_pos){ src->path, 0, 0 }, "hg.out-of-memory",
		    "out of memory: what was being read or built is dropped");
	return -1;
}

int cli_source_open(cli_source *src, const cli_inputs *in, size_t i, cli_informat format,
		    int keep_copy, hg_diags *d)
{
	const char *path = in->paths[i];
	memset(src, 0, sizeof *src);
	src->path = path;
	src->format = format;
	int stdin_ = strcmp(path, "-") == 0;
	if (format == CLI_IN_HGN && keep_copy && stdin_) {
		/* Standard input cannot be read twice: read from a copy. */
		FILE *fp;
		if (spool_stdin(&fp, &src->copy, d) != 0)
			return -1;
		src->parser = hg_parser_open_stream(path, fp, 1);
		return source_opened(src, d);
	}
	FILE *fp = stdin_ ? stdin : input_fopen(in, i, d);
	if (!fp)
		return -1;
	if (format == CLI_IN_HGN) {
		src->parser = hg_parser_open_stream(path, fp, !stdin_);
		if (source_opened(src, d) != 0)
			return -1;
		if (keep_copy) {
			src->copy = input_fopen(in, i, d);
			if (!src->copy)
				return -1;
		}
		return 0;
	}
	/* JSON and YAML, game by game: memory holds one game, whatever the
	 * file's size. */
	src->fp = stdin_ ? NULL : fp;
	if (format == CLI_IN_JSON)
		src->json = hg_json_reader_open(path, fp);
	else if (format == CLI_IN_JSONL)
		src->json = hg_jsonl_reader_open(path, fp);
	else
		src->yaml = hg_yaml_reader_open(path, fp);
	return source_opened(src, d);
}

int cli_source_next(cli_source *src, hg_game_record **g, hg_diags *d)
{
	*g = NULL;
	if (src->parser) {
		int rc = hg_parser_next(src->parser, g, d);
		if (rc == 1 && !*g)
			return 0;
		return rc;
	}
	if (src->json)
		return hg_json_reader_next(src->json, g, d);
	if (src->yaml)
		return hg_yaml_reader_next(src->yaml, g, d);
	return 0;
}

void cli_source_close(cli_source *src)
{
	if (src->parser)
		hg_parser_close(src->parser);
	hg_json_reader_close(src->json);
	hg_yaml_reader_close(src->yaml);
	if (src->fp)
		fclose(src->fp);
	if (src->copy)
		fclose(src->copy);
	memset(src, 0, sizeof *src);
}
