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

static void push(cli_inputs *in, char *path)
{
	if (in->n == in->cap) {
		in->cap = in->cap ? 2 * in->cap : 16;
		in->paths = hg_xrealloc(in->paths, in->cap * sizeof *in->paths);
	}
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

static int by_bytes(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Opens a directory met in a walk without following a symbolic link, even
 * one put in its place since it was seen. */
static DIR *open_dir_nofollow(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	DIR *dp = fdopendir(fd);
	if (!dp) {
		int saved = errno;
		close(fd);
		errno = saved;
	}
	return dp;
}

/* Collects the *.hgn files under dir.  Entries whose names start with '.'
 * are skipped (version-control and editor files).  Only regular files and
 * directories are taken: a symbolic link is not followed, wherever it
 * points (out of the tree it could name a secret or /dev/zero; within it,
 * what it names is found under its own name), and a FIFO, socket or device
 * is not read (it could block or never end). */
static size_t walk(cli_inputs *in, const char *dir, unsigned depth, hg_diags *d)
{
	if (depth > MAX_DIR_DEPTH) {
		hg_pos pos = { dir, 0, 0 };
		hg_diag_add(d, HG_ERROR, pos, "hgn.io-error",
			    "directories nested more than %d deep are not searched", MAX_DIR_DEPTH);
		return 1;
	}
	DIR *dp = depth == 0 ? opendir(dir) : open_dir_nofollow(dir);
	if (!dp) {
		io_diag(d, dir, "cannot open the directory", errno);
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
		hg_buf_puts(&path, e->d_name);
		struct stat st;
		if (lstat(path.data, &st) != 0) {
			io_diag(d, path.data, "cannot open the file", errno);
			problems++;
			continue;
		}
		if (S_ISDIR(st.st_mode))
			problems += walk(in, path.data, depth + 1, d);
		else if (S_ISREG(st.st_mode) && has_suffix(e->d_name, ".hgn"))
			push(in, hg_xstrdup(path.data));
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
			push(in, hg_xstrdup(op));
			continue;
		}
		struct stat st;
		if (stat(op, &st) != 0) {
			io_diag(d, op, "cannot open the file", errno);
			problems++;
			continue;
		}
		if (!S_ISDIR(st.st_mode)) {
			push(in, hg_xstrdup(op));
			continue;
		}
		size_t from = in->n;
		problems += walk(in, op, 0, d);
		if (in->n > from)	/* an empty directory may leave paths NULL */
			qsort(in->paths + from, in->n - from, sizeof *in->paths, by_bytes);
	}
	return problems;
}

void cli_inputs_free(cli_inputs *in)
{
	hg_strv_free(in->paths, in->n);
	memset(in, 0, sizeof *in);
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
	if (strcmp(word, "yaml") == 0 || strcmp(word, "yml") == 0)
		return CLI_IN_YAML;
	return -1;
}

int cli_source_open(cli_source *src, const char *path, cli_informat format,
		    int keep_copy, hg_diags *d)
{
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
		return 0;
	}
	if (format == CLI_IN_HGN) {
		src->parser = hg_parser_open_file(path, d);
		if (src->parser && keep_copy) {
			src->copy = fopen(path, "rb");
			if (!src->copy) {
				io_diag(d, path, "cannot open the file", errno);
				return -1;
			}
		}
		return src->parser ? 0 : -1;
	}
	/* JSON and YAML, game by game: memory holds one game, whatever the
	 * file's size. */
	FILE *fp = stdin_ ? stdin : fopen(path, "rb");
	struct stat st;
	if (!fp || (fstat(fileno(fp), &st) == 0 && S_ISDIR(st.st_mode))) {
		io_diag(d, path, fp ? "cannot read the file" : "cannot open the file",
			fp ? EISDIR : errno);
		if (fp && !stdin_)
			fclose(fp);
		return -1;
	}
	src->fp = stdin_ ? NULL : fp;
	if (format == CLI_IN_JSON)
		src->json = hg_json_reader_open(path, fp);
	else
		src->yaml = hg_yaml_reader_open(path, fp);
	return 0;
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
