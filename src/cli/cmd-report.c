/* cmd-report.c - `herald report`: the reducer of a distributed check.
 * It reads the JSON Lines of any number of `herald check --format=jsonl`
 * runs (one per shard) and writes one report, in any of check's formats,
 * with the counts summed: the same report one `herald check` of the whole
 * archive would give, but for the file names (the shards') and the time
 * (the sum of the runs' times).
 *
 * Lines are taken in input order and forgotten (memory stays constant);
 * --sort orders the games by file and number first, holding them all, for
 * engines that deliver the lines in an order of their own.  A line may carry
 * a key before a tab (Hadoop Streaming's key<TAB>value): the key is
 * ignored. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

typedef struct report_run {
	cli_common common;
	int sort;
	int results;		/* --results */
	cli_standings *standings;	/* --standings, or NULL */
	size_t illegal, stray, io;	/* --standings: what the report would count */
	cli_report *report;
	size_t files;
	double seconds;
	int bad_input;		/* a line that is not check's JSON, or unreadable input */
	/* --sort: the game lines, held */
	struct held {
		char *file;
		json_int_t game;
		size_t seq;
		json_t *obj;
	} *held;
	size_t nheld, capheld;
} report_run;

static int report_option(void *ctx, int opt, const char *arg);

static const struct option longopts[] = {
	{ "sort", no_argument, NULL, 's' },
	{ "results", no_argument, NULL, 'R' },
	{ "standings", no_argument, NULL, 'T' },
	{ NULL, 0, NULL, 0 },
};

static cli_spec spec = {
	.name = "report",
	.synopsis = "[OPTION]... [FILE]...",
	.about =
	N_("Merge the JSON Lines of 'herald check --format=jsonl' runs (one FILE per\n"
	"run, or all of them on standard input, the default) into one report: the\n"
	"games in input order, the diagnostics outside any game, and one summary\n"
	"whose counts add up the runs' (its time is the sum of their times).  This\n"
	"is the reducer of a check spread over many processors or machines (see\n"
	"herald-check(1), CHECKING AN ARCHIVE ON MANY MACHINES).  A line may start\n"
	"with a key and a tab (Hadoop Streaming's form): the key is ignored.\n"
	"\n"
	"Exit status: as herald check's: 0 when every game is legal, 1 when one is\n"
	"not, 2 when a run could not read a file or an input line is not check's.\n"),
	.options_help =
	N_("  -s, --sort             order the games by file and number (holds them all\n"
	"                         in memory) instead of taking them as they come\n"
	"      --results          print the results table instead of the diagnostics\n"
	"                         (as herald check --results)\n"
	"      --standings        each player's games, wins and points in the\n"
	"                         game's own scoring, ranked (text, csv, json)\n"),
	.formats = cli_report_formats,
	.shortopts = "s",
	.longopts = longopts,
	.option = report_option,
};

static int report_option(void *ctx, int opt, const char *arg)
{
	report_run *r = ctx;
	(void)arg;
	if (opt == 's') {
		r->sort = 1;
		return 0;
	}
	if (opt == 'R') {
		r->results = 1;
		return 0;
	}
	if (opt == 'T') {
		if (!r->standings)
			r->standings = cli_standings_new();
		return 0;
	}
	return -1;
}

/* ------------------------------------------------------------------------
 * From JSON back to diagnostics
 * ------------------------------------------------------------------------ */

static const char *str(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	return json_is_string(v) ? json_string_value(v) : NULL;
}

static unsigned uint_of(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	if (!json_is_integer(v) || json_integer_value(v) < 0 ||
	    json_integer_value(v) > (json_int_t)0xFFFFFFFF)
		return 0;
	return (unsigned)json_integer_value(v);
}

/* Fills d from a "diagnostics" array; 0, or -1 when it is not one. */
static int diags_of(json_t *a, hg_diags *d)
{
	if (!json_is_array(a))
		return -1;
	size_t i;
	json_t *o;
	json_array_foreach(a, i, o) {
		const char *sev = str(o, "severity"), *msg = str(o, "message");
		if (!json_is_object(o) || !sev || !msg)
			return -1;
		hg_severity s;
		if (strcmp(sev, "error") == 0)
			s = HG_ERROR;
		else if (strcmp(sev, "warning") == 0)
			s = HG_WARNING;
		else if (strcmp(sev, "unverified") == 0)
			s = HG_UNVERIFIED;
		else
			return -1;
		hg_pos pos = { str(o, "file"), uint_of(o, "line"), uint_of(o, "col") };
		hg_diag *dg = hg_diag_add(d, s, pos, str(o, "code"), "%s", msg);
		json_t *notes = json_object_get(o, "notes");
		size_t k;
		json_t *note;
		json_array_foreach(notes, k, note)
			if (json_is_string(note))
				hg_diag_note(dg, "%s", json_string_value(note));
		json_t *rests = json_object_get(o, "rests_on");
		json_t *r;
		json_array_foreach(rests, k, r) {
			const char *datum = str(r, "datum"), *from = str(r, "file");
			if (datum && from)
				hg_diag_rests_on_add(dg, datum, from, uint_of(r, "line"));
		}
	}
	return 0;
}

/* Reports one game object; 0, or -1 when it is not one. */
static int report_game(report_run *r, json_t *o)
{
	const char *file = str(o, "file"), *status = str(o, "status");
	json_t *game = json_object_get(o, "game");
	json_t *tags = json_object_get(o, "tags");
	int st = status ? cli_status_parse(status) : -1;
	if (!file || st < 0 || !json_is_integer(game) || json_integer_value(game) < 1)
		return -1;
	hg_diags d;
	hg_diags_init(&d);
	if (diags_of(json_object_get(o, "diagnostics"), &d) != 0) {
		hg_diags_free(&d);
		return -1;
	}
	cli_game_facts facts;
	if (cli_facts_from_json(&facts, o) != 0) {
		hg_diags_free(&d);
		return -1;
	}
	json_t *actions = json_object_get(o, "actions");
	cli_game_result g = {
		.file = file,
		.index = (size_t)json_integer_value(game),
		.line = uint_of(o, "line"),
		.game_tag = json_is_object(tags) ? str(tags, "Game") : NULL,
		.result_tag = json_is_object(tags) ? str(tags, "Result") : NULL,
		.status = (cli_game_status)st,
		.syntax_ok = json_is_true(json_object_get(o, "syntax_ok")),
		.actions = json_is_integer(actions) && json_integer_value(actions) > 0 ?
			   (size_t)json_integer_value(actions) : 0,
		.diags = &d,
		.facts = &facts,
	};
	if (r->standings) {
		r->illegal += g.status == CLI_ILLEGAL;
		cli_standings_add(r->standings, &g);
	} else {
		cli_report_game(r->report, &g);
	}
	cli_facts_free(&facts);
	hg_diags_free(&d);
	return 0;
}

static int report_loose(report_run *r, json_t *o)
{
	const char *file = str(o, "file");
	hg_diags d;
	hg_diags_init(&d);
	if (!file || diags_of(json_object_get(o, "diagnostics"), &d) != 0) {
		hg_diags_free(&d);
		return -1;
	}
	int io = json_is_true(json_object_get(o, "io_error"));
	if (r->standings) {
		r->io += io;
		r->stray += !io && d.nerrors;
		cli_print_diags(stderr, &d, 0, 1);
	} else {
		cli_report_loose(r->report, file, &d, io);
	}
	hg_diags_free(&d);
	return 0;
}

static int add_summary(report_run *r, json_t *o)
{
	json_t *files = json_object_get(o, "files"), *secs = json_object_get(o, "seconds");
	if (!json_is_object(o) || !json_is_integer(files) || !json_is_number(secs))
		return -1;
	r->files += (size_t)json_integer_value(files);
	r->seconds += json_number_value(secs);
	return 0;
}

static int by_file_and_game(const void *a, const void *b)
{
	const struct held *x = a, *y = b;
	int c = strcmp(x->file, y->file);
	if (c)
		return c;
	if (x->game != y->game)
		return x->game < y->game ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* One line: a game, stray diagnostics, or a run's summary. */
static int take_line(report_run *r, char *line, size_t len)
{
	if (len && line[len - 1] == '\n')
		line[--len] = '\0';
	if (len && line[len - 1] == '\r')
		line[--len] = '\0';
	if (len == 0)
		return 0;
	if (line[0] != '{') {	/* key<TAB>value */
		char *tab = memchr(line, '\t', len);
		if (!tab)
			return -1;
		len -= (size_t)(tab + 1 - line);
		line = tab + 1;
	}
	json_error_t err;
	json_t *o = json_loadb(line, len, 0, &err);
	if (!json_is_object(o)) {
		json_decref(o);
		return -1;
	}
	int rc;
	if (json_object_get(o, "summary"))
		rc = add_summary(r, json_object_get(o, "summary"));
	else if (json_object_get(o, "game") && r->sort) {
		const char *file = str(o, "file");
		json_t *game = json_object_get(o, "game");
		if (!file || !json_is_integer(game)) {
			json_decref(o);
			return -1;
		}
		if (r->nheld == r->capheld) {
			r->capheld = r->capheld ? 2 * r->capheld : 256;
			r->held = cli_xrealloc(r->held, r->capheld * sizeof *r->held);
		}
		struct held *h = &r->held[r->nheld];
		h->file = cli_xstrdup(file);
		h->game = json_integer_value(game);
		h->seq = r->nheld++;
		h->obj = o;
		return 0;
	} else if (json_object_get(o, "game"))
		rc = report_game(r, o);
	else
		rc = report_loose(r, o);
	json_decref(o);
	return rc;
}

static void read_input(report_run *r, const char *path)
{
	int stdin_ = strcmp(path, "-") == 0;
	FILE *fp = stdin_ ? stdin : fopen(path, "rb");
	if (!fp) {
		cli_error("report", "cannot open '%s': %s", path, strerror(errno));
		r->bad_input = 1;
		return;
	}
	char *line = NULL;
	size_t cap = 0;
	ssize_t got;
	unsigned long lineno = 0;
	while ((got = getline(&line, &cap, fp)) >= 0) {
		lineno++;
		if (take_line(r, line, (size_t)got) != 0) {
			cli_error("report", "%s:%lu: not a line of 'herald check --format=jsonl'",
				  path, lineno);
			r->bad_input = 1;
		}
	}
	if (ferror(fp)) {
		cli_error("report", "read error in '%s': %s", path, strerror(errno));
		r->bad_input = 1;
	}
	free(line);
	if (!stdin_)
		fclose(fp);
}

/* Writes the standings; the exit status is the report's. */
static int finish_standings(report_run *r)
{
	hg_buf b;
	hg_buf_init(&b);
	cli_standings_write(r->standings, r->common.format, &b);
	cli_standings_free(r->standings);
	int write_failed = (b.len && fwrite(b.data, 1, b.len, stdout) != b.len) ||
			   fflush(stdout) != 0;
	hg_buf_free(&b);
	if (write_failed) {
		cli_error("report", "write error");
		return CLI_EXIT_USAGE;
	}
	if (r->io || r->bad_input)
		return CLI_EXIT_USAGE;
	return r->illegal || r->stray ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}

int cli_report_main(int argc, char **argv)
{
	report_run r;
	memset(&r, 0, sizeof r);
	spec.ctx = &r;
	int first;
	int status = cli_parse(&spec, argc, argv, &r.common, &first);
	if (status >= 0) {
		cli_standings_free(r.standings);
		return status;
	}
	if (r.standings && (r.results || r.common.format == CLI_REPORT_JUNIT ||
			    r.common.format == CLI_REPORT_SARIF)) {
		cli_standings_free(r.standings);
		return cli_usage_error(&spec, "--standings is written as text, csv, json or jsonl, "
				       "without --results");
	}
	if (!r.standings)
		r.report = cli_report_new(r.common.format, stdout, r.common.quiet,
					  cli_use_colour(&r.common, stdout),
					  cli_use_colour(&r.common, stderr));
	if (r.results)
		cli_report_results(r.report);
	if (first >= argc)
		read_input(&r, "-");
	for (int i = first; i < argc; i++)
		read_input(&r, argv[i]);
	if (r.sort) {
		qsort(r.held, r.nheld, sizeof *r.held, by_file_and_game);
		for (size_t i = 0; i < r.nheld; i++) {
			if (report_game(&r, r.held[i].obj) != 0) {
				cli_error("report", "a game line of '%s' is not check's", r.held[i].file);
				r.bad_input = 1;
			}
			json_decref(r.held[i].obj);
			free(r.held[i].file);
		}
		free(r.held);
	}
	if (r.standings)
		return finish_standings(&r);
	int write_failed = cli_report_finish(r.report, r.files, r.seconds) != 0;
	const cli_summary *sum = cli_report_summary(r.report);
	int io = sum->io_errors > 0, bad = sum->counts[CLI_ILLEGAL] || sum->stray_errors;
	cli_report_free(r.report);
	if (write_failed) {
		cli_error("report", "write error");
		return CLI_EXIT_USAGE;
	}
	if (io || r.bad_input)
		return CLI_EXIT_USAGE;
	return bad ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}
