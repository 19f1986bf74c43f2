/* cmd-convert.c - `herald convert`: records between HGN, JSON (a document
 * or JSON Lines) and YAML.  Every game is canonicalised on the way, so
 * HGN -> JSON -> HGN gives exactly what `herald fmt` gives. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

typedef enum out_format { TO_HGN, TO_JSON, TO_JSONL, TO_YAML } out_format;
static const char *const out_formats[] = { "hgn", "json", "jsonl", "yaml", NULL };

typedef struct convert_run {
	cli_common common;
	int to;			/* out_format, -1 until given */
	int from;		/* cli_informat, -1: by extension */
	const char *output;	/* -o FILE, or NULL for standard output */
	hg_session *session;
	int colour_err;
	hg_buf out;
	size_t written;		/* games so far (for the separators) */
	hg_buf before, after;	/* TO_JSON: the document around the games */
	FILE *sink;		/* standard output, or the temporary -o file */
	cli_atomic tmp;
	int io_error, bad;
	int write_failed;	/* the output is lost: nothing more is converted */
} convert_run;

static cli_spec spec;	/* defined below; the option handler reports through it */

static int convert_option(void *ctx, int opt, const char *arg)
{
	convert_run *r = ctx;
	switch (opt) {
	case 't':
		for (int i = 0; out_formats[i]; i++)
			if (strcmp(arg, out_formats[i]) == 0) {
				r->to = i;
				return 0;
			}
		cli_usage_error(&spec, "invalid output format '%s' (valid: 'hgn', 'json', 'jsonl', 'yaml')",
				arg);
		return -1;
	case 'f':
		return cli_from_option(&spec, arg, &r->from);
	case 'o':
		r->output = arg;
		return 0;
	}
	return -1;
}

static const struct option longopts[] = {
	{ "to", required_argument, NULL, 't' },
	{ "from", required_argument, NULL, 'f' },
	{ "output", required_argument, NULL, 'o' },
	{ NULL, 0, NULL, 0 },
};

static cli_spec spec = {
	.name = "convert",
	.synopsis = "--to=FORMAT [OPTION]... FILE...",
	.about =
	N_("Convert game records between HGN, JSON and YAML.  The input format of each\n"
	"FILE comes from --from, else from its extension (.hgn, .json, .jsonl,\n"
	".yaml, .yml; anything else, and standard input '-', is HGN).  Every game\n"
	"is written in canonical form, so HGN -> JSON -> HGN gives exactly what\n"
	"'herald fmt' gives.\n"
	"The games of all FILEs go into one output, written game by game; a game\n"
	"with an error is left out and its diagnostics go to standard error.\n"
	"\n"
	"Exit status: 0 when all went well, 1 when a game has an error, 2 on a usage\n"
	"or input/output error.\n"),
	.options_help =
	N_("  -t, --to=FORMAT        write FORMAT: hgn, json (one document), jsonl (one\n"
	"                         game object per line) or yaml\n"
	"  -f, --from=FORMAT      read every FILE as FORMAT: hgn, json, jsonl or yaml\n"
	"  -o, --output=FILE      write to FILE (atomically; nothing is written when\n"
	"                         any game has an error) instead of standard output\n"),
	.shortopts = "t:f:o:",
	.longopts = longopts,
	.option = convert_option,
};

/* Appends one game of a JSON document: the document is jansson's, made one
 * game at a time and laid out as jansson lays out the whole (each game
 * indented under "games"), so that it equals hg_write_json of all games. */
static void emit_json_game(convert_run *r, const hg_game_record *g)
{
	hg_buf one;
	hg_buf_init(&one);
	cli_wrote(hg_write_json_game(g, &one, 1));
	hg_buf_puts(&r->out, r->written++ ? ",\n    " : "\n    ");
	for (size_t i = 0; i < one.len; i++) {
		hg_buf_putc(&r->out, one.data[i]);
		if (one.data[i] == '\n')
			hg_buf_puts(&r->out, "    ");
	}
	hg_buf_free(&one);
}

/* The document around the games: hg_write_json of none, cut at its "[]". */
static void json_frame(hg_buf *before, hg_buf *after)
{
	hg_buf doc;
	hg_buf_init(&doc);
	cli_wrote(hg_write_json(NULL, 0, &doc));
	const char *open = strstr(doc.data, "[]");
	hg_buf_putn(before, doc.data, (size_t)(open - doc.data) + 1);
	hg_buf_puts(after, open + 1);
	hg_buf_free(&doc);
}

/* Appends one game of a YAML document: libyaml's text for a document of
 * that game alone, less the lines before the game's own (the same for
 * every game). */
static void emit_yaml_game(convert_run *r, hg_game_record *g)
{
	hg_buf one;
	hg_buf_init(&one);
	cli_wrote(hg_write_yaml(&g, 1, &one));
	const char *body = one.data;
	if (r->written++) {
		const char *games = strstr(one.data, "\ngames:\n");
		if (games)
			body = games + strlen("\ngames:\n");
	}
	hg_buf_puts(&r->out, body);
	hg_buf_free(&one);
}

/* Writes what is buffered to the sink.  The first write error stops the
 * conversion (on a full disk every later write would fail the same way)
 * and is said once: here for -o FILE, by herald's closing of standard
 * output (herald.c) for standard output, where the data still buffered
 * fails again. */
static void flush_out(convert_run *r)
{
	if (!r->write_failed && cli_put_text(r->sink, r->out.data, r->out.len, 1) != 0) {
		if (r->output)
			cli_error("convert", "cannot write '%s': %s", r->output, strerror(errno));
		r->write_failed = 1;
		r->io_error = 1;
	}
	hg_buf_clear(&r->out);
}

static void emit(convert_run *r, hg_game_record *g)
{
	switch ((out_format)r->to) {
	case TO_HGN:
		cli_hgn_append(&r->out, g, &r->written);
		break;
	case TO_JSONL:
		cli_wrote(hg_write_json_game(g, &r->out, 0));
		hg_buf_putc(&r->out, '\n');
		break;
	case TO_JSON:
		if (r->written == 0)
			hg_buf_putn(&r->out, r->before.data, r->before.len);
		emit_json_game(r, g);
		break;
	case TO_YAML:
		emit_yaml_game(r, g);
		break;
	}
	hg_record_free(g);
	/* Every format streams, to standard output or to the temporary file
	 * that becomes -o FILE. */
	if (r->sink)
		flush_out(r);
}

static void convert_file(convert_run *r, const cli_inputs *in, size_t i)
{
	const char *path = in->paths[i];
	hg_diags d;
	hg_diags_init(&d);
	cli_informat from = cli_informat_pick(r->from, path);
	cli_source src;
	if (cli_source_open(&src, in, i, from, 0, &d) != 0) {
		cli_print_diags(stderr, &d, r->colour_err, 0);
		r->io_error = 1;
		cli_source_close(&src);
		hg_diags_free(&d);
		return;
	}
	while (!r->write_failed) {
		hg_game_record *g;
		int rc = cli_source_next(&src, &g, &d);
		if (rc <= 0) {
			if (rc < 0)
				r->io_error = 1;
			if (d.nerrors)
				r->bad = 1;
			cli_print_diags(stderr, &d, r->colour_err, r->common.quiet);
			break;
		}
		if (d.nerrors == 0 && hg_canonicalize(r->session, g, &d) == HG_ENOMEM)
			cli_note_out_of_memory();
		cli_print_diags(stderr, &d, r->colour_err, r->common.quiet);
		if (d.nerrors) {
			r->bad = 1;
			hg_record_free(g);
		} else {
			emit(r, g);
		}
		hg_diags_clear(&d);
	}
	cli_source_close(&src);
	hg_diags_free(&d);
}

int cli_convert_main(int argc, char **argv)
{
	convert_run r;
	memset(&r, 0, sizeof r);
	r.to = r.from = -1;
	hg_buf_init(&r.out);
	spec.ctx = &r;
	int first;
	int status = cli_parse(&spec, argc, argv, &r.common, &first);
	if (status >= 0)
		return status;
	if (r.to < 0)
		return cli_usage_error(&spec, "missing --to=FORMAT (hgn, json, jsonl or yaml)");
	if (first >= argc)
		return cli_usage_error(&spec, "missing FILE operand ('-' reads standard input)");
	if (r.output && strcmp(r.output, "-") == 0)
		r.output = NULL;
	r.colour_err = cli_use_colour(&r.common, stderr);

	hg_diags d;
	hg_diags_init(&d);
	cli_inputs in = { 0 };
	if (cli_inputs_expand(&in, argv + first, argc - first, &d) > 0)
		r.io_error = 1;
	cli_print_diags(stderr, &d, r.colour_err, 0);
	hg_diags_free(&d);

	r.session = cli_session_new(&r.common);
	hg_buf_init(&r.before);
	hg_buf_init(&r.after);
	json_frame(&r.before, &r.after);
	r.sink = stdout;
	if (r.output) {
		if (cli_atomic_open(&r.tmp, r.output) != 0) {
			cli_error("convert", "cannot write '%s': %s", r.output, strerror(errno));
			r.io_error = 1;
			r.sink = NULL;
		} else {
			r.sink = r.tmp.fp;
		}
	}
	for (size_t i = 0; r.sink && !r.write_failed && i < in.n; i++)
		convert_file(&r, &in, i);
	if (r.to == TO_JSON) {
		if (r.written == 0)
			hg_buf_putn(&r.out, r.before.data, r.before.len);
		else
			hg_buf_puts(&r.out, "\n  ");
		hg_buf_putn(&r.out, r.after.data, r.after.len);
	} else if (r.to == TO_YAML && r.written == 0) {
		cli_wrote(hg_write_yaml(NULL, 0, &r.out));
	}
	if (r.sink)
		flush_out(&r);
	if (r.output && r.sink) {
		if (r.write_failed) {
			cli_atomic_abort(&r.tmp);	/* said by flush_out */
		} else if (r.io_error || r.bad) {
			cli_atomic_abort(&r.tmp);
			cli_error("convert", "'%s' not written because of the errors above", r.output);
		} else if (cli_atomic_commit(&r.tmp) != 0) {
			cli_error("convert", "cannot write '%s': %s", r.output, strerror(errno));
			r.io_error = 1;
		}
	}

	hg_buf_free(&r.out);
	hg_buf_free(&r.before);
	hg_buf_free(&r.after);
	hg_session_free(r.session);
	cli_inputs_free(&in);
	if (r.io_error)
		return CLI_EXIT_USAGE;
	return r.bad ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}
