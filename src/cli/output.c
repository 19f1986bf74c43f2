/* output.c - printing what the library reports: diagnostics as GNU text
 * (coloured only where colour is wanted) or as JSON through jansson, and
 * the writing of results to stdout or, atomically, to a file. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/random.h>
#include <unistd.h>

#include "cli.h"

void cli_error(const char *command, const char *fmt, ...)
{
	va_list ap;
	hg_buf msg, shown;
	hg_buf_init(&msg);
	hg_buf_init(&shown);
	va_start(ap, fmt);
	hg_buf_vprintf(&msg, _(fmt), ap);
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
	cli_buf_check(&shown);
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
	cli_diags_check(d);
	hg_buf b;
	hg_buf_init(&b);
	for (size_t i = 0; i < d->n; i++) {
		if (errors_only && d->v[i].severity != HG_ERROR)
			continue;
		hg_diag_format(&d->v[i], &b, colour);
	}
	cli_buf_check(&b);
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
	cli_buf_check(&b);
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
	if (dg->nrests_on)
		json_object_set_new(o, "rests_on", cli_json_rests_on(dg));
	return o;
}

json_t *cli_json_rests_on(const hg_diag *dg)
{
	json_t *a = json_array();
	for (size_t i = 0; i < dg->nrests_on; i++) {
		const hg_rests_on *r = &dg->rests_on[i];
		json_t *o = json_object();
		json_object_set_new(o, "datum", cli_json_string(r->datum));
		json_object_set_new(o, "file", cli_json_string(r->file));
		json_object_set_new(o, "line", r->line ? json_integer(r->line) : json_null());
		json_array_append_new(a, o);
	}
	return a;
}

json_t *cli_json_diags(const hg_diags *d, int errors_only)
{
	cli_diags_check(d);
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

void cli_wrote(int status)
{
	if (status == HG_ENOMEM)
		cli_out_of_memory();
}

void cli_hgn_append(hg_buf *out, const hg_game_record *g, size_t *count)
{
	/* The game is written alone, so that the separator is ours whatever
	 * the writer does with a buffer that already holds text. */
	hg_buf game;
	hg_buf_init(&game);
	cli_wrote(hg_write_hgn(g, &game));
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

void cli_put_place(hg_buf *b, const char *path, unsigned line)
{
	if (line)
		hg_buf_printf(b, "%s:%u", path, line);
	else
		hg_buf_puts(b, path);
}

/* Set once a failed write to standard output is reported: one line says it,
 * however many games were still to be written. */
static int stdout_failed;

int cli_stdout_failed(void)
{
	return stdout_failed;
}

/* Reports a failed write to fp, once for standard output. */
static void write_failed(const char *command, FILE *fp)
{
	if (fp == stdout) {
		if (stdout_failed)
			return;
		stdout_failed = 1;
	}
	cli_error(command, "write error: %s", strerror(errno));
}

int cli_flush_buf(const char *command, FILE *fp, hg_buf *b)
{
	int rc = 0;
	cli_buf_check(b);
	if ((fp == stdout && stdout_failed) || cli_put_text(fp, b->data, b->len, 1) != 0) {
		write_failed(command, fp);
		rc = -1;
	}
	hg_buf_clear(b);
	return rc;
}

int cli_write_output(const char *command, const char *path, const char *data, size_t len)
{
	if (strcmp(path, "-") == 0) {
		if (stdout_failed || (len && fwrite(data, 1, len, stdout) != len)) {
			write_failed(command, stdout);
			return -1;
		}
		return 0;
	}
	/* Through cli_atomic rather than hg_write_file_atomic: the temporary
	 * file is then removed on a signal too. */
	cli_atomic a;
	if (cli_atomic_open(&a, path) != 0) {
		cli_error(command, "cannot write '%s': %s", path, strerror(errno));
		return -1;
	}
	if (len && fwrite(data, 1, len, a.fp) != len) {
		int saved = errno;
		cli_atomic_abort(&a);
		cli_error(command, "cannot write '%s': %s", path, strerror(saved));
		return -1;
	}
	if (cli_atomic_commit(&a) != 0) {
		cli_error(command, "cannot write '%s': %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------------------
 * Rewriting files.  The temporary files being written are kept in a list
 * that a handler of SIGINT, SIGTERM and SIGHUP walks to remove them before
 * the signal ends the process as it would have.  The list changes only
 * with those signals blocked, so the handler never sees it half-changed
 * (the commands that rewrite files do so on one thread); the handler calls
 * only unlink, unlinkat, sigaction and raise (async-signal-safe).
 * ------------------------------------------------------------------------ */
static cli_atomic *volatile pending;	/* the open temporary files */
static const int fatal_signals[] = { SIGINT, SIGTERM, SIGHUP };
#define NFATAL (sizeof fatal_signals / sizeof fatal_signals[0])

static void remove_pending(int sig)
{
	for (cli_atomic *a = pending; a; a = a->next)
		if (a->dirfd >= 0)
			unlinkat(a->dirfd, a->tmp, 0);
		else
			unlink(a->tmp);
	struct sigaction dfl;
	memset(&dfl, 0, sizeof dfl);
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	sigaction(sig, &dfl, NULL);
	raise(sig);	/* delivered when the handler returns: the default, death */
}

static void install_handlers(void)
{
	static int installed;
	if (installed)
		return;
	installed = 1;
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = remove_pending;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < NFATAL; i++)
		sigaddset(&sa.sa_mask, fatal_signals[i]);
	for (size_t i = 0; i < NFATAL; i++) {
		struct sigaction old;
		/* A signal ignored (nohup) stays ignored. */
		if (sigaction(fatal_signals[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
			sigaction(fatal_signals[i], &sa, NULL);
	}
}

static void block_fatal(sigset_t *saved)
{
	sigset_t set;
	sigemptyset(&set);
	for (size_t i = 0; i < NFATAL; i++)
		sigaddset(&set, fatal_signals[i]);
	pthread_sigmask(SIG_BLOCK, &set, saved);
}

static void unblock_fatal(const sigset_t *saved)
{
	pthread_sigmask(SIG_SETMASK, saved, NULL);
}

/* Takes a out of the pending list; with the signals blocked. */
static void unlist(cli_atomic *a)
{
	for (cli_atomic *volatile *p = &pending; *p; p = &(*p)->next)
		if (*p == a) {
			*p = a->next;
			break;
		}
}

static void remove_temporary(const cli_atomic *a)
{
	if (a->dirfd >= 0)
		unlinkat(a->dirfd, a->tmp, 0);
	else
		unlink(a->tmp);
}

int cli_atomic_open(cli_atomic *a, const char *path)
{
	memset(a, 0, sizeof *a);
	a->dirfd = -1;
	char *target = hg_rewrite_target(path);
	if (!target)
		return -1;
	/* A device or a FIFO (/dev/null, /dev/stdout, a pipe) is written in
	 * place, as a shell's redirection would: a temporary file renamed
	 * over it would replace the device with a regular file. */
	struct stat st;
	if (stat(target, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
		a->fp = fopen(target, "wb");
		if (!a->fp) {
			int saved = errno;
			free(target);
			errno = saved;
			return -1;
		}
		a->path = cli_xstrdup(path);
		a->target = target;
		return 0;
	}
	hg_buf tmp;
	hg_buf_init(&tmp);
	hg_buf_printf(&tmp, "%s.herald-XXXXXX", target);
	cli_buf_check(&tmp);
	install_handlers();
	sigset_t saved_mask;
	block_fatal(&saved_mask);
	int fd = mkstemp(tmp.data);
	if (fd < 0) {
		int saved = errno;
		unblock_fatal(&saved_mask);
		hg_buf_free(&tmp);
		free(target);
		errno = saved;
		return -1;
	}
	a->fp = fdopen(fd, "wb");
	if (!a->fp) {
		int saved = errno;
		close(fd);
		unlink(tmp.data);
		unblock_fatal(&saved_mask);
		hg_buf_free(&tmp);
		free(target);
		errno = saved;
		return -1;
	}
	a->tmp = hg_buf_steal(&tmp);
	a->path = cli_xstrdup(path);
	a->target = target;
	a->next = pending;
	pending = a;
	unblock_fatal(&saved_mask);
	return 0;
}

/* Creates `name`.herald-XXXXXX in dirfd, the X's random, following no
 * link: a descriptor and *tmp its name, or -1 with errno set. */
static int create_temporary_at(int dirfd, const char *name, char **tmp)
{
	static const char letters[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	hg_buf b;
	hg_buf_init(&b);
	for (int tries = 0; tries < 100; tries++) {
		unsigned char r[6];
		if (getrandom(r, sizeof r, 0) != (ssize_t)sizeof r)
			break;
		b.len = 0;
		hg_buf_printf(&b, "%s.herald-", name);
		for (size_t i = 0; i < sizeof r; i++)
			hg_buf_putc(&b, letters[r[i] % (sizeof letters - 1)]);
		cli_buf_check(&b);
		int fd = openat(dirfd, b.data,
				O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0) {
			*tmp = hg_buf_steal(&b);
			return fd;
		}
		if (errno != EEXIST)
			break;
	}
	int saved = errno ? errno : EEXIST;
	hg_buf_free(&b);
	errno = saved;
	return -1;
}

int cli_atomic_open_at(cli_atomic *a, int dirfd, const char *name, const char *path)
{
	memset(a, 0, sizeof *a);
	a->dirfd = -1;
	install_handlers();
	sigset_t saved_mask;
	block_fatal(&saved_mask);
	char *tmp = NULL;
	int fd = create_temporary_at(dirfd, name, &tmp);
	if (fd >= 0 && !(a->fp = fdopen(fd, "wb"))) {
		int saved = errno;
		close(fd);
		unlinkat(dirfd, tmp, 0);
		free(tmp);
		errno = saved;
		fd = -1;
	}
	if (fd < 0) {
		int saved = errno;
		unblock_fatal(&saved_mask);
		close(dirfd);
		errno = saved;
		return -1;
	}
	a->dirfd = dirfd;
	a->tmp = tmp;
	a->path = cli_xstrdup(path);
	a->target = cli_xstrdup(name);
	a->next = pending;
	pending = a;
	unblock_fatal(&saved_mask);
	return 0;
}

static void atomic_release(cli_atomic *a)
{
	if (a->dirfd >= 0)
		close(a->dirfd);
	free(a->path);
	free(a->target);
	free(a->tmp);
	memset(a, 0, sizeof *a);
	a->dirfd = -1;
}

int cli_atomic_commit(cli_atomic *a)
{
	int saved = 0;
	if (fflush(a->fp) != 0 || ferror(a->fp))
		saved = errno ? errno : EIO;
	if (!a->tmp) {	/* written in place */
		if (fclose(a->fp) != 0 && !saved)
			saved = errno;
		atomic_release(a);
		errno = saved;
		return saved ? -1 : 0;
	}
	if (!saved && (a->dirfd >= 0 ? hg_rewrite_attributes_at(fileno(a->fp), a->dirfd, a->target)
				     : hg_rewrite_attributes(fileno(a->fp), a->target)) != 0)
		saved = errno;
	if (!saved && fsync(fileno(a->fp)) != 0)
		saved = errno;
	if (fclose(a->fp) != 0 && !saved)
		saved = errno;
	a->fp = NULL;
	sigset_t saved_mask;
	block_fatal(&saved_mask);
	if (!saved && (a->dirfd >= 0 ? renameat(a->dirfd, a->tmp, a->dirfd, a->target)
				     : rename(a->tmp, a->target)) != 0)
		saved = errno;
	if (saved)
		remove_temporary(a);
	unlist(a);
	unblock_fatal(&saved_mask);
	atomic_release(a);
	errno = saved;
	return saved ? -1 : 0;
}

void cli_atomic_abort(cli_atomic *a)
{
	if (a->fp)
		fclose(a->fp);
	if (!a->tmp) {	/* written in place: nothing to remove */
		atomic_release(a);
		return;
	}
	sigset_t saved_mask;
	block_fatal(&saved_mask);
	remove_temporary(a);
	unlist(a);
	unblock_fatal(&saved_mask);
	atomic_release(a);
}
