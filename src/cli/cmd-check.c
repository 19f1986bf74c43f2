/* cmd-check.c - `herald check`: parse every game of every file, replay
 * each game that parsed against its rules engine, and report. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

enum { FORMAT_TEXT, FORMAT_JSON, FORMAT_JSONL };
static const char *const formats[] = { "text", "json", "jsonl", NULL };

typedef enum game_status { LEGAL, ILLEGAL, UNVERIFIED } game_status;
static const char *const status_names[] = { "legal", "illegal", "unverified" };

typedef struct check_run {
	cli_common common;
	hg_session *session;
	int colour_out, colour_err;
	size_t files, games, counts[3];
	int io_error;		/* exit 2 at the end */
	int bad_content;	/* malformed text outside any game: exit 1 */
	json_t *jgames;		/* FORMAT_JSON: the games so far */
	json_t *jdiags;		/* FORMAT_JSON: diagnostics outside any game */
	struct timespec start;
} check_run;

static const cli_spec spec = {
	.name = "check",
	.synopsis = "[OPTION]... FILE...",
	.about =
	"Check game records: parse each game of each FILE, replay every action of\n"
	"the main line and of every variation against the game's rules, and compare\n"
	"the declared result with the replayed one.  FILE '-' is standard input; a\n"
	"directory stands for every *.hgn file under it.\n"
	"\n"
	"Diagnostics go to standard output, then a summary line:\n"
	"  N games, L legal, I illegal, U unverified (T.TT s)\n"
	"where an unverified game is legal as far as it could be checked but hides\n"
	"information (a '?') that a rule needed.\n"
	"\n"
	"Exit status: 0 when every game is legal (warnings and unverified actions do\n"
	"not fail), 1 when a game is illegal or malformed, 2 on a usage error or when\n"
	"a file cannot be read (the other files are still checked).\n",
	.formats = formats,
};

static double elapsed(const struct timespec *since)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - since->tv_sec) +
	       (double)(now.tv_nsec - since->tv_nsec) / 1e9;
}

static json_t *game_json(const char *path, size_t index, const hg_game_record *g,
			 game_status status, int syntax_ok, const hg_check_result *res,
			 const hg_diags *d, int errors_only)
{
	json_t *o = json_object();
	json_object_set_new(o, "file", cli_json_string(path));
	json_object_set_new(o, "game", json_integer((json_int_t)index));
	json_object_set_new(o, "line", json_integer(g->pos.line));
	json_t *tags = json_object();
	json_object_set_new(tags, "Game", cli_json_string(hg_record_tag_value(g, "Game")));
	json_object_set_new(tags, "Result", cli_json_string(hg_record_tag_value(g, "Result")));
	json_object_set_new(o, "tags", tags);
	json_object_set_new(o, "status", json_string(status_names[status]));
	json_object_set_new(o, "syntax_ok", json_boolean(syntax_ok));
	json_object_set_new(o, "actions", json_integer((json_int_t)(res ? res->actions : 0)));
	json_object_set_new(o, "diagnostics", cli_json_diags(d, errors_only));
	return o;
}

static void report_game(check_run *r, const char *path, size_t index,
			const hg_game_record *g, game_status status, int syntax_ok,
			const hg_check_result *res, const hg_diags *d)
{
	r->games++;
	r->counts[status]++;
	switch (r->common.format) {
	case FORMAT_TEXT:
		cli_print_diags(stdout, d, r->colour_out, r->common.quiet);
		break;
	case FORMAT_JSON:
		json_array_append_new(r->jgames, game_json(path, index, g, status, syntax_ok, res,
							   d, r->common.quiet));
		break;
	case FORMAT_JSONL:
		cli_json_print(stdout, game_json(path, index, g, status, syntax_ok, res, d,
						 r->common.quiet), 0);
		break;
	}
}

/* Diagnostics that belong to no game: text outside any game (content, so
 * standard output) or an I/O failure (standard error). */
static void report_loose(check_run *r, const char *path, hg_diags *d, int io)
{
	if (d->n == 0)
		return;
	if (io)
		r->io_error = 1;
	else if (d->nerrors)
		r->bad_content = 1;
	if (io || r->common.format == FORMAT_TEXT)
		cli_print_diags(io ? stderr : stdout, d, io ? r->colour_err : r->colour_out,
				r->common.quiet);
	if (r->common.format == FORMAT_JSON) {
		json_t *a = cli_json_diags(d, r->common.quiet);
		json_array_extend(r->jdiags, a);
		json_decref(a);
	} else if (r->common.format == FORMAT_JSONL) {
		json_t *o = json_object();
		json_object_set_new(o, "file", cli_json_string(path));
		json_object_set_new(o, "diagnostics", cli_json_diags(d, r->common.quiet));
		cli_json_print(stdout, o, 0);
	}
	hg_diags_clear(d);
}

static void check_game(check_run *r, const char *path, size_t index, hg_game_record *g,
		       hg_diags *d)
{
	/* A game with a syntax error is reported, not replayed. */
	if (d->nerrors) {
		report_game(r, path, index, g, ILLEGAL, 0, NULL, d);
		return;
	}
	hg_check_result res;
	int rc = hg_check_game(r->session, g, d, NULL, &res, NULL, NULL);
	game_status status = LEGAL;
	if (rc != 0 || d->nerrors)
		status = ILLEGAL;
	else if (d->nunverified)
		status = UNVERIFIED;
	report_game(r, path, index, g, status, 1, &res, d);
}

static void check_file(check_run *r, const char *path)
{
	hg_diags d;
	hg_diags_init(&d);
	cli_source src;
	r->files++;
	if (cli_source_open(&src, path, CLI_IN_HGN, 0, &d) != 0) {
		report_loose(r, path, &d, 1);
		cli_source_close(&src);
		hg_diags_free(&d);
		return;
	}
	for (size_t index = 1;; index++) {
		hg_game_record *g;
		int rc = cli_source_next(&src, &g, &d);
		if (rc <= 0) {
			report_loose(r, path, &d, rc < 0);
			break;
		}
		check_game(r, path, index, g, &d);
		hg_record_free(g);
		hg_diags_clear(&d);
	}
	cli_source_close(&src);
	hg_diags_free(&d);
}

static void print_summary(check_run *r)
{
	double seconds = elapsed(&r->start);
	if (r->common.format == FORMAT_TEXT) {
		if (!r->common.quiet)
			printf("%zu game%s, %zu legal, %zu illegal, %zu unverified (%.2f s)\n",
			       r->games, r->games == 1 ? "" : "s", r->counts[LEGAL],
			       r->counts[ILLEGAL], r->counts[UNVERIFIED], seconds);
		return;
	}
	json_t *sum = json_object();
	json_object_set_new(sum, "files", json_integer((json_int_t)r->files));
	json_object_set_new(sum, "games", json_integer((json_int_t)r->games));
	json_object_set_new(sum, "legal", json_integer((json_int_t)r->counts[LEGAL]));
	json_object_set_new(sum, "illegal", json_integer((json_int_t)r->counts[ILLEGAL]));
	json_object_set_new(sum, "unverified", json_integer((json_int_t)r->counts[UNVERIFIED]));
	json_object_set_new(sum, "seconds", json_real((double)(long long)(seconds * 1000 + 0.5) / 1000));
	if (r->common.format == FORMAT_JSONL) {
		json_t *o = json_object();
		json_object_set_new(o, "summary", sum);
		cli_json_print(stdout, o, 0);
		return;
	}
	json_t *doc = json_object();
	json_object_set_new(doc, "herald", json_string(hg_version()));
	json_object_set_new(doc, "games", r->jgames);
	json_object_set_new(doc, "diagnostics", r->jdiags);
	json_object_set_new(doc, "summary", sum);
	r->jgames = r->jdiags = NULL;
	cli_json_print(stdout, doc, 1);
}

int cli_check_main(int argc, char **argv)
{
	check_run r;
	memset(&r, 0, sizeof r);
	clock_gettime(CLOCK_MONOTONIC, &r.start);
	int first;
	int status = cli_parse(&spec, argc, argv, &r.common, &first);
	if (status >= 0)
		return status;
	if (first >= argc)
		return cli_usage_error(&spec, "missing FILE operand ('-' reads standard input)");
	r.colour_out = cli_use_colour(&r.common, stdout);
	r.colour_err = cli_use_colour(&r.common, stderr);

	hg_diags d;
	hg_diags_init(&d);
	cli_inputs in = { 0 };
	if (cli_inputs_expand(&in, argv + first, argc - first, &d) > 0)
		r.io_error = 1;
	cli_print_diags(stderr, &d, r.colour_err, 0);
	if (r.common.format == FORMAT_JSON) {
		r.jgames = json_array();
		r.jdiags = cli_json_diags(&d, 0);
	}
	hg_diags_free(&d);

	r.session = hg_session_new(r.common.data_dir);
	for (size_t i = 0; i < in.n; i++)
		check_file(&r, in.paths[i]);
	print_summary(&r);
	hg_session_free(r.session);
	cli_inputs_free(&in);
	json_decref(r.jgames);
	json_decref(r.jdiags);

	if (r.io_error)
		return CLI_EXIT_USAGE;
	if (r.counts[ILLEGAL] || r.bad_content)
		return CLI_EXIT_FAIL;
	return CLI_EXIT_OK;
}
