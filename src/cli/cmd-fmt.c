/* cmd-fmt.c - `herald fmt`: records in canonical HGN, on standard output,
 * rewritten in place (atomically, only when changed, never when broken),
 * or only checked (--check, for CI).  Every mode streams: a file of any
 * size is formatted game by game. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

typedef enum fmt_mode { TO_STDOUT, CHECK_ONLY, IN_PLACE } fmt_mode;

typedef struct fmt_run {
	cli_common common;
	fmt_mode mode;
	int check, in_place;	/* the options as given */
	int from;		/* --from: cli_informat, -1: by extension */
	hg_session *session;
	int colour_err;
	int stdout_tty;		/* each game shown as it is made */
	size_t written;		/* TO_STDOUT: games written, across files */
	int io_error, bad, unformatted;
} fmt_run;

static cli_spec spec;	/* below: --from's usage errors name it */

static int fmt_option(void *ctx, int opt, const char *arg)
{
	fmt_run *r = ctx;
	(void)arg;
	switch (opt) {
	case 'c':
		r->check = 1;
		return 0;
	case 'i':
		r->in_place = 1;
		return 0;
	case 'F':
		return cli_from_option(&spec, arg, &r->from);
	}
	return -1;
}

static const struct option longopts[] = {
	{ "check", no_argument, NULL, 'c' },
	{ "in-place", no_argument, NULL, 'i' },
	{ "from", required_argument, NULL, 'F' },
	{ NULL, 0, NULL, 0 },
};

static cli_spec spec = {
	.name = "fmt",
	.synopsis = "[OPTION]... FILE...",
	.about =
	N_("Write each game of each FILE in canonical HGN: tags, move text, comments,\n"
	"annotations and variations kept, every action in its game's canonical\n"
	"spelling, the layout normalised.  FILE '-' is standard input; a directory\n"
	"stands for every *.hgn file under it.  Diagnostics go to standard error; a\n"
	"game with an error is not written.\n"
	"\n"
	"Exit status: 0 when all went well, 1 when a game has an error or (with\n"
	"--check) a file is not canonical, 2 on a usage or input/output error.\n"),
	.options_help =
	N_("  -c, --check            write nothing; list the files that are not in\n"
	"                         canonical form on standard output\n"
	"  -i, --in-place         rewrite each file that is not canonical, atomically\n"
	"                         and keeping its mode; a file with any error is left\n"
	"                         untouched\n"),
	.shortopts = "ci",
	.longopts = longopts,
	.option = fmt_option,
};

/* Where canonical text goes as it is made: standard output, or (to check
 * or rewrite a file) a comparison with the file's own bytes, read a second
 * time alongside, and for --in-place a temporary file that replaces the
 * original only when the two differ.  Nothing is held but one game. */
typedef struct sink {
	FILE *orig;		/* the original, for comparing */
	int differs;
	cli_atomic tmp;		/* IN_PLACE */
	int writing;
} sink;

/* Standard output is written in blocks of about this many bytes: a few
 * games at a time rather than one write per game. */
#define STDOUT_BLOCK 65536

static int sink_put(fmt_run *r, sink *k, hg_buf *out, int last)
{
	if (r->mode == TO_STDOUT) {
		if (!last && !r->stdout_tty && out->len < STDOUT_BLOCK)
			return 0;
		return cli_flush_buf("fmt", stdout, out);
	}
	if (!k->differs && out->len) {
		char chunk[65536];
		size_t done = 0;
		while (done < out->len && !k->differs) {
			size_t want = out->len - done < sizeof chunk ? out->len - done : sizeof chunk;
			size_t got = fread(chunk, 1, want, k->orig);
			if (got != want || memcmp(chunk, out->data + done, got) != 0)
				k->differs = 1;
			done += got;
		}
	}
	int rc = 0;
	if (k->writing && out->len && fwrite(out->data, 1, out->len, k->tmp.fp) != out->len) {
		cli_error("fmt", "cannot write '%s': %s", k->tmp.path, strerror(errno));
		rc = -1;
	}
	hg_buf_clear(out);
	return rc;
}

/* Whether the original has bytes left after the canonical text ended.  One
 * blank line after the last game is canonical too: herald gen ends its
 * output so, that files joined with cat keep one between every two games. */
static int sink_longer(sink *k, size_t games)
{
	if (k->differs)
		return 1;
	int c = fgetc(k->orig);
	if (c == '\n' && games > 0)
		c = fgetc(k->orig);
	return c != EOF;
}

/* Canonicalises the games of an open source into the sink, game by game.
 * Returns 1 when a game or the text around the games has an error. */
static int format_games(fmt_run *r, cli_source *src, sink *k, size_t *counter, hg_diags *d)
{
	int bad = 0;
	hg_buf out;
	hg_buf_init(&out);
	for (;;) {
		hg_game_record *g;
		int rc = cli_source_next(src, &g, d);
		if (rc <= 0) {
			if (rc < 0)
				r->io_error = 1;
			bad |= d->nerrors > 0 || rc < 0;
			cli_print_diags(stderr, d, r->colour_err, r->common.quiet);
			hg_diags_clear(d);
			if (sink_put(r, k, &out, 1) != 0) {
				r->io_error = 1;
				bad = 1;
			}
			break;
		}
		if (d->nerrors == 0 && hg_canonicalize(r->session, g, d) == HG_ENOMEM)
			cli_note_out_of_memory();
		if (d->nerrors)
			bad = 1;
		else
			cli_hgn_append(&out, g, counter);
		cli_print_diags(stderr, d, r->colour_err, r->common.quiet);
		hg_diags_clear(d);
		hg_record_free(g);
		if (sink_put(r, k, &out, 0) != 0) {
			r->io_error = 1;
			bad = 1;
			break;
		}
	}
	hg_buf_free(&out);
	return bad;
}

static void fmt_file(fmt_run *r, const cli_inputs *in, size_t i)
{
	const char *path = in->paths[i];
	hg_diags d;
	hg_diags_init(&d);
	cli_source src;
	sink k;
	memset(&k, 0, sizeof k);
	size_t count = 0;
	/* The original is read a second time alongside, to compare (standard
	 * input through a temporary copy). */
	int keep = r->mode != TO_STDOUT;
	if (cli_source_open(&src, in, i, cli_informat_pick(r->from, path), keep, &d) != 0) {
		cli_print_diags(stderr, &d, r->colour_err, 0);
		r->io_error = 1;
		cli_source_close(&src);
		hg_diags_free(&d);
		return;
	}
	k.orig = src.copy;
	src.copy = NULL;
	if (r->mode == IN_PLACE) {
		/* A file found in a directory operand is rewritten from that
		 * directory's descriptor down, as it was read: a directory on
		 * its way swapped for a link meanwhile is refused. */
		const char *name;
		int dirfd = cli_input_dir_open(in, i, &name);
		int opened = dirfd >= 0 ? cli_atomic_open_at(&k.tmp, dirfd, name, path)
			   : errno == 0 ? cli_atomic_open(&k.tmp, path)
					: -1;
		if (opened != 0) {
			cli_error("fmt", "cannot rewrite '%s': %s", path, strerror(errno));
			r->io_error = 1;
			if (k.orig)
				fclose(k.orig);
			cli_source_close(&src);
			hg_diags_free(&d);
			return;
		}
		k.writing = 1;
	}
	if (format_games(r, &src, &k, r->mode == TO_STDOUT ? &r->written : &count, &d)) {
		r->bad = 1;	/* in place: the file stays as it is */
	} else if (r->mode != TO_STDOUT && sink_longer(&k, count)) {
		if (r->mode == CHECK_ONLY) {
			cli_put_text(stdout, path, strlen(path), 0);
			putchar('\n');
			r->unformatted = 1;
		} else {
			if (cli_atomic_commit(&k.tmp) != 0) {
				cli_error("fmt", "cannot write '%s': %s", path, strerror(errno));
				r->io_error = 1;
			}
			k.writing = 0;
		}
	}
	if (k.writing)
		cli_atomic_abort(&k.tmp);
	if (k.orig)
		fclose(k.orig);
	cli_source_close(&src);
	hg_diags_free(&d);
}

int cli_fmt_main(int argc, char **argv)
{
	fmt_run r;
	memset(&r, 0, sizeof r);
	r.from = -1;
	spec.ctx = &r;
	int first;
	int status = cli_parse(&spec, argc, argv, &r.common, &first);
	if (status >= 0)
		return status;
	if (r.check && r.in_place)
		return cli_usage_error(&spec, "--check and --in-place exclude each other");
	r.mode = r.check ? CHECK_ONLY : r.in_place ? IN_PLACE : TO_STDOUT;
	if (first >= argc)
		return cli_usage_error(&spec, "missing FILE operand ('-' reads standard input)");
	for (int i = first; i < argc; i++)
		if (r.mode == IN_PLACE && strcmp(argv[i], "-") == 0)
			return cli_usage_error(&spec, "standard input cannot be rewritten in place");
	/* --check and --in-place compare with the file's own HGN text. */
	for (int i = first; i < argc; i++)
		if (r.mode != TO_STDOUT && cli_informat_pick(r.from, argv[i]) != CLI_IN_HGN)
			return cli_usage_error(&spec, "'%s' is not HGN: --check and --in-place "
					       "take HGN files (fmt writes others' HGN to "
					       "standard output)", argv[i]);
	r.colour_err = cli_use_colour(&r.common, stderr);
	r.stdout_tty = isatty(fileno(stdout));

	hg_diags d;
	hg_diags_init(&d);
	cli_inputs in = { 0 };
	if (cli_inputs_expand(&in, argv + first, argc - first, &d) > 0)
		r.io_error = 1;
	cli_print_diags(stderr, &d, r.colour_err, 0);
	hg_diags_free(&d);

	r.session = cli_session_new(&r.common);
	/* standard output failing (a full disk) ends the run: the files left
	 * would only fail the same way */
	for (size_t i = 0; i < in.n && !cli_stdout_failed(); i++)
		fmt_file(&r, &in, i);
	hg_session_free(r.session);
	cli_inputs_free(&in);

	if (r.io_error)
		return CLI_EXIT_USAGE;
	return r.bad || r.unformatted ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}
