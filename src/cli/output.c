/* output.c - printing what the library reports: diagnostics as GNU text
 * (coloured only where colour is wanted) or as JSON through jansson, and
 * the writing of results to stdout or, atomically, to a file. */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

void cli_error(const char *command, const char *fmt, ...)
{
	va_list ap;
	hg_buf msg, shown;
	hg_buf_init(&msg);
	hg_buf_init(&shown);
	va_start(ap, fmt);
	hg_buf_vprintf(&msg, fmt, ap);
	va_end(ap);
	/* The message may quote a file name: control characters escaped. */
	hg_buf_put_visible(&shown, msg.data ? msg.data : "", msg.len, 0);
	if (command)
		fprintf(stderr, "herald %s: ", command);
	else
		fputs("herald: ", stderr);
	fwrite(shown.data ? shown.data : "", 1, shown.len, stderr);
	fputc('\n', stderr);
	hg_buf_free(&msg);
	hg_buf_free(&shown);
}

int cli_put_text(FILE *fp, const char *data, size_t len, int keep_layout)
{
	if (len == 0)
		return 0;
	if (!isatty(fileno(fp)))
		return fwrite(data, 1, len, fp) == len ? 0 : -1;
	hg_buf shown;
	hg_buf_init(&shown);
	hg_buf_put_visible(&shown, data, len, keep_layout);
	int rc = fwrite(shown.data, 1, shown.len, fp) == shown.len ? 0 : -1;
	hg_buf_free(&shown);
	return rc;
}

/* NO_COLOR (https://no-color.org): present and not empty disables colour
 * by default; an explicit --color=always still wins, as that convention
 * asks of command-line flags. */
int cli_use_colour(const cli_common *common, FILE *fp)
{
	/* NO_COLOR wins over everything, --color=always included: whoever set
	 * it asked for no colour at all (issue: "never when NO_COLOR is set"). */
	const char *no_colour = getenv("NO_COLOR");
	if (no_colour && *no_colour)
		return 0;
	if (common->colour == CLI_COLOUR_ALWAYS)
		return 1;
	if (common->colour == CLI_COLOUR_NEVER)
		return 0;
	const char *term = getenv("TERM");
	if (term && strcmp(term, "dumb") == 0)
		return 0;
	return isatty(fileno(fp));
}

void cli_print_diags(FILE *fp, const hg_diags *d, int colour, int errors_only)
{
	hg_buf b;
	hg_buf_init(&b);
	for (size_t i = 0; i < d->n; i++) {
		if (errors_only && d->v[i].severity != HG_ERROR)
			continue;
		hg_diag_format(&d->v[i], &b, colour);
	}
	if (b.len)
		fwrite(b.data, 1, b.len, fp);
	hg_buf_free(&b);
}

json_t *cli_json_string(const char *s)
{
	if (!s)
		return json_null();
	size_t len = strlen(s);
	if (hg_utf8_invalid_at(s, len) == (size_t)-1)
		return json_stringn(s, len);
	hg_buf b;
	hg_buf_init(&b);
	size_t i = 0;
	while (i < len) {
		uint32_t cp;
		int n = hg_utf8_decode(s + i, len - i, &cp);
		if (n <= 0) {
			hg_utf8_put(&b, 0xFFFD);
			i++;
		} else {
			hg_buf_putn(&b, s + i, (size_t)n);
			i += (size_t)n;
		}
	}
	json_t *v = json_stringn(b.data ? b.data : "", b.len);
	hg_buf_free(&b);
	return v;
}

json_t *cli_json_diag(const hg_diag *dg)
{
	json_t *o = json_object();
	json_object_set_new(o, "severity", json_string(hg_severity_name(dg->severity)));
	json_object_set_new(o, "file", cli_json_string(dg->file));
	json_object_set_new(o, "line", dg->line ? json_integer(dg->line) : json_null());
	json_object_set_new(o, "col", dg->col ? json_integer(dg->col) : json_null());
	json_object_set_new(o, "code", cli_json_string(dg->code));
	json_object_set_new(o, "message", cli_json_string(dg->message));
	json_t *notes = json_array();
	for (size_t i = 0; i < dg->nnotes; i++)
		json_array_append_new(notes, cli_json_string(dg->notes[i]));
	json_object_set_new(o, "notes", notes);
	return o;
}

json_t *cli_json_diags(const hg_diags *d, int errors_only)
{
	json_t *a = json_array();
	for (size_t i = 0; i < d->n; i++) {
		if (errors_only && d->v[i].severity != HG_ERROR)
			continue;
		json_array_append_new(a, cli_json_diag(&d->v[i]));
	}
	return a;
}

void cli_json_print(FILE *fp, json_t *v, int pretty)
{
	/* Six significant digits: times in seconds, nothing finer is meant. */
	size_t flags = JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(6) |
		       (pretty ? JSON_INDENT(2) : JSON_COMPACT);
	char *text = json_dumps(v, flags);
	if (text) {
		fputs(text, fp);
		fputc('\n', fp);
		free(text);
	}
	json_decref(v);
}

void cli_print_suggestions(FILE *fp, const char *const *words, size_t n)
{
	if (n == 0)
		return;
	fputs("Did you mean", fp);
	for (size_t i = 0; i < n; i++)
		fprintf(fp, "%s '%s'", i == 0 ? "" : i + 1 == n ? " or" : ",", words[i]);
	fputs("?\n", fp);
}

void cli_hgn_append(hg_buf *out, const hg_game_record *g, size_t *count)
{
	/* The game is written alone, so that the separator is ours whatever
	 * the writer does with a buffer that already holds text. */
	hg_buf game;
	hg_buf_init(&game);
	hg_write_hgn(g, &game);
	if (*count > 0)
		hg_buf_putc(out, '\n');
	if (game.len)
		hg_buf_putn(out, game.data, game.len);
	/* Each game ends its last line, so that the separator is one blank line. */
	if (game.len && game.data[game.len - 1] != '\n')
		hg_buf_putc(out, '\n');
	hg_buf_free(&game);
	(*count)++;
}

int cli_flush_buf(const char *command, FILE *fp, hg_buf *b)
{
	int rc = 0;
	if (cli_put_text(fp, b->data, b->len, 1) != 0) {
		cli_error(command, "write error: %s", strerror(errno));
		rc = -1;
	}
	hg_buf_clear(b);
	return rc;
}

int cli_write_output(const char *command, const char *path, const char *data, size_t len)
{
	if (strcmp(path, "-") == 0) {
		if (len && fwrite(data, 1, len, stdout) != len) {
			cli_error(command, "write error: %s", strerror(errno));
			return -1;
		}
		return 0;
	}
	if (hg_write_file_atomic(path, data, len) != 0) {
		cli_error(command, "cannot write '%s': %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

int cli_atomic_open(cli_atomic *a, const char *path)
{
	memset(a, 0, sizeof *a);
	struct stat st;
	if (stat(path, &st) == 0) {
		a->mode = st.st_mode & 07777;
	} else {
		mode_t mask = umask(0);
		umask(mask);
		a->mode = 0666 & ~mask;
	}
	hg_buf tmp;
	hg_buf_init(&tmp);
	hg_buf_printf(&tmp, "%s.herald-XXXXXX", path);
	int fd = mkstemp(tmp.data);
	if (fd < 0) {
		int saved = errno;
		hg_buf_free(&tmp);
		errno = saved;
		return -1;
	}
	a->fp = fdopen(fd, "wb");
	if (!a->fp) {
		int saved = errno;
		close(fd);
		unlink(tmp.data);
		hg_buf_free(&tmp);
		errno = saved;
		return -1;
	}
	a->tmp = hg_buf_steal(&tmp);
	a->path = hg_xstrdup(path);
	return 0;
}

static void atomic_release(cli_atomic *a)
{
	free(a->path);
	free(a->tmp);
	memset(a, 0, sizeof *a);
}

int cli_atomic_commit(cli_atomic *a)
{
	int saved = 0;
	if (fflush(a->fp) != 0 || ferror(a->fp))
		saved = errno ? errno : EIO;
	if (!saved && fchmod(fileno(a->fp), a->mode) != 0)
		saved = errno;
	if (!saved && fsync(fileno(a->fp)) != 0)
		saved = errno;
	if (fclose(a->fp) != 0 && !saved)
		saved = errno;
	a->fp = NULL;
	if (!saved && rename(a->tmp, a->path) != 0)
		saved = errno;
	if (saved)
		unlink(a->tmp);
	atomic_release(a);
	errno = saved;
	return saved ? -1 : 0;
}

void cli_atomic_abort(cli_atomic *a)
{
	if (a->fp)
		fclose(a->fp);
	if (a->tmp)
		unlink(a->tmp);
	atomic_release(a);
}
