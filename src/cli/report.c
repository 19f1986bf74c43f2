/* report.c - the reports of `herald check` and `herald report`: what each
 * game came to, and the diagnostics outside any game, in one of five
 * formats (herald-check(1), OUTPUT):
 *
 *   text   GNU diagnostics and a summary line;
 *   json   one document: {"herald", "games", "diagnostics", "summary"};
 *   jsonl  one object per game, per stray diagnostic list, and a summary;
 *   junit  JUnit XML, a test suite per file and a test case per game
 *          (grammar/herald-check-junit.xsd);
 *   sarif  SARIF 2.1.0, a result per diagnostic, the codes as rules;
 *   csv    the results table (RFC 4180), a row per game; text with
 *          --results is the same table for a terminal (results-table.c).
 *
 * Every format is written as the games arrive, so memory does not grow
 * with the number of games: JSON and SARIF objects are made by jansson one
 * game at a time, and JUnit, whose counts head each suite, is spooled to
 * temporary files until the counts are known. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

const char *const cli_report_formats[] = { "text", "json", "jsonl", "junit", "sarif", "csv", NULL };

static const char *const status_names[] = { "legal", "illegal", "unverified" };

/* SARIF: the schema the log follows. */
#define SARIF_SCHEMA "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

struct cli_report {
	int format;
	FILE *out;
	int errors_only;
	int results;		/* text: the results table instead of diagnostics */
	int colour_out, colour_err;
	int failed;		/* a write failed */
	cli_summary sum;

	/* the results table (text with --results, csv) */
	int table_started;

	/* json */
	size_t ngames_written;
	json_t *loose;		/* the top-level "diagnostics" */

	/* junit: the current file's test cases, then all suites */
	FILE *cases, *suites;
	char *suite_file;	/* the file whose cases are in `cases` */
	size_t suite_tests, suite_failures, suite_errors;
	size_t total_tests, total_failures, total_errors;

	/* sarif */
	size_t nresults;
	char **rules;		/* the codes used, in order of first use */
	size_t nrules, caprules;
};

const char *cli_status_name(cli_game_status s)
{
	return status_names[s];
}

int cli_status_parse(const char *word)
{
	for (int i = 0; i < 3; i++)
		if (strcmp(word, status_names[i]) == 0)
			return i;
	return -1;
}

/* ------------------------------------------------------------------------
 * Writing
 * ------------------------------------------------------------------------ */

static void put(cli_report *r, FILE *fp, const char *s, size_t n)
{
	if (n && fwrite(s, 1, n, fp) != n)
		r->failed = 1;
}

static void puts_to(cli_report *r, FILE *fp, const char *s)
{
	put(r, fp, s, strlen(s));
}

/* Dumps v (stolen) compactly, or indented with every line after the first
 * shifted right by `indent` spaces (so an object nests inside the
 * document that is written around it). */
static void dump(cli_report *r, FILE *fp, json_t *v, int pretty, int indent)
{
	size_t flags = JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(6) | JSON_ENCODE_ANY |
		       (pretty ? JSON_INDENT(2) : JSON_COMPACT);
	char *text = json_dumps(v, flags);
	json_decref(v);
	if (!text)
		return;
	/* Strings never hold a raw line feed (JSON escapes it), so every line
	 * feed in the text is layout. */
	for (const char *s = text; *s;) {
		const char *nl = strchr(s, '\n');
		size_t n = nl ? (size_t)(nl - s + 1) : strlen(s);
		put(r, fp, s, n);
		if (nl)
			for (int i = 0; i < indent; i++)
				put(r, fp, " ", 1);
		s += n;
	}
	free(text);
}

/* ------------------------------------------------------------------------
 * JSON objects (json, jsonl, and what `herald report` reads back)
 * ------------------------------------------------------------------------ */

json_t *cli_game_json(const cli_game_result *g, int errors_only)
{
	json_t *o = json_object();
	json_object_set_new(o, "file", cli_json_string(g->file));
	json_object_set_new(o, "game", json_integer((json_int_t)g->index));
	json_object_set_new(o, "line", json_integer(g->line));
	json_t *tags = json_object();
	json_object_set_new(tags, "Game", cli_json_string(g->game_tag));
	json_object_set_new(tags, "Result", cli_json_string(g->result_tag));
	const cli_game_facts *f = g->facts;
	json_object_set_new(tags, "Event", cli_json_string(f ? f->event : NULL));
	json_object_set_new(tags, "Round", cli_json_string(f ? f->round : NULL));
	json_object_set_new(o, "tags", tags);
	json_object_set_new(o, "players", f ? cli_facts_players_json(f) : json_array());
	json_object_set_new(o, "replayed_result", cli_json_string(f ? f->replayed : NULL));
	json_object_set_new(o, "ended", cli_json_string(f ? cli_ended_word(f->ended) : NULL));
	json_object_set_new(o, "status", json_string(status_names[g->status]));
	json_object_set_new(o, "syntax_ok", json_boolean(g->syntax_ok));
	json_object_set_new(o, "actions", json_integer((json_int_t)g->actions));
	json_object_set_new(o, "diagnostics", cli_json_diags(g->diags, errors_only));
	return o;
}

json_t *cli_summary_json(const cli_summary *s)
{
	json_t *o = json_object();
	json_object_set_new(o, "files", json_integer((json_int_t)s->files));
	json_object_set_new(o, "games", json_integer((json_int_t)s->games));
	json_object_set_new(o, "legal", json_integer((json_int_t)s->counts[CLI_LEGAL]));
	json_object_set_new(o, "illegal", json_integer((json_int_t)s->counts[CLI_ILLEGAL]));
	json_object_set_new(o, "unverified", json_integer((json_int_t)s->counts[CLI_UNVERIFIED]));
	json_object_set_new(o, "actions", json_integer((json_int_t)s->actions));
	/* Milliseconds are all a run's time means. */
	json_object_set_new(o, "seconds", json_real((double)(long long)(s->seconds * 1000 + 0.5) / 1000));
	return o;
}

/* ------------------------------------------------------------------------
 * XML (junit)
 * ------------------------------------------------------------------------ */

/* Text for an attribute or element: markup escaped; invalid UTF-8 and
 * control characters but tab and line ends (which XML 1.0 cannot carry, or
 * a viewer might pass to a terminal) escaped as in the text diagnostics
 * (\x1b, \u009b); U+FFFE and U+FFFF replaced by U+FFFD. */
static void xml_text(hg_buf *b, const char *s)
{
	size_t len = strlen(s), i = 0;
	while (i < len) {
		uint32_t cp;
		int n = hg_utf8_decode(s + i, len - i, &cp);
		if (n <= 0 || (cp < 0x20 && cp != '\t' && cp != '\n' && cp != '\r') ||
		    (cp >= 0x7f && cp <= 0x9f)) {
			size_t k = n <= 0 ? 1 : (size_t)n;
			hg_buf_put_visible(b, s + i, k, 0);
			i += k;
			continue;
		}
		if (cp == 0xFFFE || cp == 0xFFFF) {
			hg_utf8_put(b, 0xFFFD);
			i += (size_t)n;
			continue;
		}
		switch (cp) {
		case '&': hg_buf_puts(b, "&amp;"); break;
		case '<': hg_buf_puts(b, "&lt;"); break;
		case '>': hg_buf_puts(b, "&gt;"); break;
		case '"': hg_buf_puts(b, "&quot;"); break;
		case '\n': hg_buf_puts(b, "&#10;"); break;
		case '\r': hg_buf_puts(b, "&#13;"); break;
		case '\t': hg_buf_puts(b, "&#9;"); break;
		default: hg_buf_putn(b, s + i, (size_t)n); break;
		}
		i += (size_t)n;
	}
}

/* Element content keeps its line feeds as they are. */
static void xml_content(hg_buf *b, const char *s)
{
	for (const char *line = s; *line;) {
		const char *nl = strchr(line, '\n');
		size_t n = nl ? (size_t)(nl - line) : strlen(line);
		char *part = cli_xstrndup(line, n);
		xml_text(b, part);
		free(part);
		if (!nl)
			break;
		hg_buf_putc(b, '\n');
		line = nl + 1;
	}
}

static void diags_text(hg_buf *b, const hg_diags *d, int errors_only)
{
	for (size_t i = 0; i < d->n; i++)
		if (!errors_only || d->v[i].severity == HG_ERROR)
			hg_diag_format(&d->v[i], b, 0);
}

/* The first error, as a failure's one-line message and type. */
static const hg_diag *first_error(const hg_diags *d)
{
	for (size_t i = 0; i < d->n; i++)
		if (d->v[i].severity == HG_ERROR)
			return &d->v[i];
	return NULL;
}

/* The reconstructed data the case's verdicts rest on, one property each
 * (herald-data(5)): a dashboard can flag the case without reading the
 * notes. */
static void junit_rests_on(hg_buf *b, const hg_diags *d, int errors_only)
{
	for (size_t i = 0; i < d->n; i++) {
		const hg_diag *dg = &d->v[i];
		if (errors_only && dg->severity != HG_ERROR)
			continue;
		for (size_t k = 0; k < dg->nrests_on; k++) {
			const hg_rests_on *ro = &dg->rests_on[k];
			hg_buf_puts(b, "        <property name=\"rests-on\" value=\"");
			xml_text(b, ro->datum);
			hg_buf_puts(b, " (");
			xml_text(b, ro->file);
			hg_buf_printf(b, ":%u)\"/>\n", ro->line);
		}
	}
}

static void junit_problem(hg_buf *b, const char *element, const hg_diags *d, int errors_only)
{
	const hg_diag *e = first_error(d);
	hg_buf text;
	hg_buf_init(&text);
	diags_text(&text, d, errors_only);
	hg_buf msg;
	hg_buf_init(&msg);
	if (e && e->line)
		hg_buf_printf(&msg, "%s:%u:%u: %s", e->file ? e->file : "-", e->line, e->col,
			      e->message);
	else if (e)
		hg_buf_printf(&msg, "%s: %s", e->file ? e->file : "-", e->message);
	hg_buf_printf(b, "      <%s message=\"", element);
	xml_text(b, msg.data ? msg.data : "");
	hg_buf_puts(b, "\" type=\"");
	xml_text(b, e && e->code ? e->code : "herald");
	hg_buf_puts(b, "\">");
	xml_content(b, text.data ? text.data : "");
	hg_buf_printf(b, "</%s>\n", element);
	hg_buf_free(&msg);
	hg_buf_free(&text);
}

static void junit_output(hg_buf *b, const hg_diags *d, int errors_only)
{
	hg_buf text;
	hg_buf_init(&text);
	diags_text(&text, d, errors_only);
	if (text.len) {
		hg_buf_puts(b, "      <system-out>");
		xml_content(b, text.data);
		hg_buf_puts(b, "</system-out>\n");
	}
	hg_buf_free(&text);
}

/* Copies a spool file to fp and empties it. */
static void spool_copy(cli_report *r, FILE *from, FILE *to)
{
	char chunk[65536];
	if (fflush(from) != 0 || fseek(from, 0, SEEK_SET) != 0) {
		r->failed = 1;
		return;
	}
	size_t n;
	while ((n = fread(chunk, 1, sizeof chunk, from)) > 0)
		put(r, to, chunk, n);
	if (ferror(from))
		r->failed = 1;
	rewind(from);
	/* The next suite overwrites from the start; its end is marked by
	 * truncating (ftruncate through the stream's descriptor). */
	if (ftruncate(fileno(from), 0) != 0)
		r->failed = 1;
}

/* Ends the current file's suite: its header, then its cases. */
static void junit_end_suite(cli_report *r)
{
	if (!r->suite_file)
		return;
	hg_buf b;
	hg_buf_init(&b);
	hg_buf_puts(&b, "  <testsuite name=\"");
	xml_text(&b, r->suite_file);
	hg_buf_printf(&b, "\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\">\n",
		      r->suite_tests, r->suite_failures, r->suite_errors);
	put(r, r->suites, b.data, b.len);
	spool_copy(r, r->cases, r->suites);
	puts_to(r, r->suites, "  </testsuite>\n");
	hg_buf_free(&b);
	free(r->suite_file);
	r->suite_file = NULL;
	r->suite_tests = r->suite_failures = r->suite_errors = 0;
}

static void junit_case(cli_report *r, const char *file, const char *name, hg_buf *body,
		       int failure, int error)
{
	if (r->suite_file && strcmp(r->suite_file, file) != 0)
		junit_end_suite(r);
	if (!r->suite_file)
		r->suite_file = cli_xstrdup(file);
	r->suite_tests++;
	r->total_tests++;
	r->suite_failures += failure;
	r->suite_errors += error;
	r->total_failures += failure;
	r->total_errors += error;
	hg_buf b;
	hg_buf_init(&b);
	hg_buf_puts(&b, "    <testcase classname=\"");
	xml_text(&b, file);
	hg_buf_puts(&b, "\" name=\"");
	xml_text(&b, name);
	if (body->len) {
		hg_buf_puts(&b, "\">\n");
		hg_buf_putn(&b, body->data, body->len);
		hg_buf_puts(&b, "    </testcase>\n");
	} else {
		hg_buf_puts(&b, "\"/>\n");
	}
	put(r, r->cases, b.data, b.len);
	hg_buf_free(&b);
}

/* ------------------------------------------------------------------------
 * SARIF
 * ------------------------------------------------------------------------ */

static json_t *facts_json(const cli_game_result *g);

static size_t rule_index(cli_report *r, const char *code)
{
	for (size_t i = 0; i < r->nrules; i++)
		if (strcmp(r->rules[i], code) == 0)
			return i;
	if (r->nrules == r->caprules) {
		r->caprules = r->caprules ? 2 * r->caprules : 32;
		r->rules = cli_xrealloc(r->rules, r->caprules * sizeof *r->rules);
	}
	r->rules[r->nrules] = cli_xstrdup(code);
	return r->nrules++;
}

/* A file name as a URI reference: relative names stay relative (to the
 * directory herald ran in), absolute ones become file: URIs; every byte
 * but the unreserved characters and '/' is percent-encoded. */
static json_t *file_uri(const char *file)
{
	hg_buf b;
	hg_buf_init(&b);
	if (file[0] == '/')
		hg_buf_puts(&b, "file://");
	for (const unsigned char *s = (const unsigned char *)file; *s; s++) {
		if ((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') ||
		    (*s >= '0' && *s <= '9') || *s == '-' || *s == '.' || *s == '_' ||
		    *s == '~' || *s == '/')
			hg_buf_putc(&b, (char)*s);
		else
			hg_buf_printf(&b, "%%%02X", *s);
	}
	json_t *v = json_string(b.data ? b.data : "");
	hg_buf_free(&b);
	return v;
}

static const char *sarif_level(hg_severity s)
{
	switch (s) {
	case HG_ERROR: return "error";
	case HG_WARNING: return "warning";
	case HG_UNVERIFIED: return "note";
	}
	return "none";
}

static void sarif_result(cli_report *r, const hg_diag *dg, const cli_game_result *g)
{
	const char *code = dg->code ? dg->code : "herald";
	json_t *res = json_object();
	json_object_set_new(res, "ruleId", json_string(code));
	json_object_set_new(res, "ruleIndex", json_integer((json_int_t)rule_index(r, code)));
	json_object_set_new(res, "level", json_string(sarif_level(dg->severity)));
	hg_buf text;
	hg_buf_init(&text);
	hg_buf_puts(&text, dg->message ? dg->message : "");
	for (size_t i = 0; i < dg->nnotes; i++)
		hg_buf_printf(&text, "\nnote: %s", dg->notes[i]);
	json_t *msg = json_object();
	json_object_set_new(msg, "text", cli_json_string(text.data ? text.data : ""));
	hg_buf_free(&text);
	json_object_set_new(res, "message", msg);
	if (dg->file) {
		json_t *art = json_object();
		json_object_set_new(art, "uri", file_uri(dg->file));
		json_t *phys = json_object();
		json_object_set_new(phys, "artifactLocation", art);
		if (dg->line) {
			json_t *region = json_object();
			json_object_set_new(region, "startLine", json_integer(dg->line));
			if (dg->col)
				json_object_set_new(region, "startColumn", json_integer(dg->col));
			json_object_set_new(phys, "region", region);
		}
		json_t *loc = json_object();
		json_object_set_new(loc, "physicalLocation", phys);
		json_t *locs = json_array();
		json_array_append_new(locs, loc);
		json_object_set_new(res, "locations", locs);
	}
	/* herald's own severity, since SARIF has no word for "unverified". */
	json_t *props = json_object();
	json_object_set_new(props, "severity", json_string(hg_severity_name(dg->severity)));
	if (dg->nrests_on)
		json_object_set_new(props, "rests_on", cli_json_rests_on(dg));
	if (g)
		json_object_set_new(props, "game", facts_json(g));
	json_object_set_new(res, "properties", props);
	puts_to(r, r->out, r->nresults++ ? ",\n" : "\n");
	dump(r, r->out, res, 0, 0);
}

static void sarif_diags(cli_report *r, const hg_diags *d, const cli_game_result *g)
{
	for (size_t i = 0; i < d->n; i++)
		if (!r->errors_only || d->v[i].severity == HG_ERROR)
			sarif_result(r, &d->v[i], g);
}

/* ------------------------------------------------------------------------
 * The report
 * ------------------------------------------------------------------------ */

cli_report *cli_report_new(int format, FILE *out, int errors_only, int colour_out,
			   int colour_err)
{
	cli_report *r = cli_xcalloc(1, sizeof *r);
	r->format = format;
	r->out = out;
	r->errors_only = errors_only;
	r->colour_out = colour_out;
	r->colour_err = colour_err;
	switch (format) {
	case CLI_REPORT_JSON:
		r->loose = json_array();
		json_t *v = json_string(hg_version());
		puts_to(r, out, "{\n  \"herald\": ");
		dump(r, out, v, 0, 0);
		puts_to(r, out, ",\n  \"games\": [");
		break;
	case CLI_REPORT_JUNIT:
		r->cases = tmpfile();
		r->suites = tmpfile();
		if (!r->cases || !r->suites) {
			cli_error(NULL, "cannot create a temporary file for the JUnit report: %s",
				  strerror(errno));
			r->failed = 1;
		}
		break;
	case CLI_REPORT_SARIF:
		puts_to(r, out, "{\"$schema\": \"" SARIF_SCHEMA "\",\n"
			" \"version\": \"2.1.0\",\n"
			" \"runs\": [{\"columnKind\": \"unicodeCodePoints\",\n"
			"  \"results\": [");
		break;
	}
	return r;
}

void cli_report_results(cli_report *r)
{
	r->results = 1;
}

static int is_table(const cli_report *r)
{
	return r->format == CLI_REPORT_CSV || (r->format == CLI_REPORT_TEXT && r->results);
}

static void table_row(cli_report *r, const cli_game_result *g)
{
	int csv = r->format == CLI_REPORT_CSV;
	hg_buf b;
	hg_buf_init(&b);
	if (!r->table_started)
		cli_results_header(&b, csv);
	r->table_started = 1;
	if (g)
		cli_results_row(&b, g, csv);
	put(r, r->out, b.data, b.len);
	hg_buf_free(&b);
}

/* The game's facts for a SARIF result's or a JUnit case's properties. */
static json_t *facts_json(const cli_game_result *g)
{
	const cli_game_facts *f = g->facts;
	json_t *o = json_object();
	json_object_set_new(o, "file", cli_json_string(g->file));
	json_object_set_new(o, "game", json_integer((json_int_t)g->index));
	json_object_set_new(o, "Event", cli_json_string(f ? f->event : NULL));
	json_object_set_new(o, "Round", cli_json_string(f ? f->round : NULL));
	json_object_set_new(o, "players", f ? cli_facts_players_json(f) : json_array());
	json_object_set_new(o, "declared_result", cli_json_string(g->result_tag));
	json_object_set_new(o, "replayed_result", cli_json_string(f ? f->replayed : NULL));
	json_object_set_new(o, "ended", cli_json_string(f ? cli_ended_word(f->ended) : NULL));
	json_object_set_new(o, "status", json_string(status_names[g->status]));
	return o;
}

/* A JUnit test case's <properties>: the results table's columns, then
 * the reconstructed data its verdicts rest on. */
static void junit_properties(hg_buf *b, const cli_game_result *g, int errors_only)
{
	const cli_game_facts *f = g->facts;
	hg_buf players;
	hg_buf_init(&players);
	if (f)
		cli_facts_players(f, &players);
	const char *props[][2] = {
		{ "Event", f ? f->event : NULL },
		{ "Round", f ? f->round : NULL },
		{ "players", players.data },
		{ "declared_result", g->result_tag },
		{ "replayed_result", f ? f->replayed : NULL },
		{ "ended", f ? cli_ended_word(f->ended) : NULL },
	};
	hg_buf_puts(b, "      <properties>\n");
	for (size_t i = 0; i < sizeof props / sizeof *props; i++) {
		if (!props[i][1])
			continue;
		hg_buf_printf(b, "        <property name=\"%s\" value=\"", props[i][0]);
		xml_text(b, props[i][1]);
		hg_buf_puts(b, "\"/>\n");
	}
	junit_rests_on(b, g->diags, errors_only);
	hg_buf_puts(b, "      </properties>\n");
	hg_buf_free(&players);
}

void cli_report_game(cli_report *r, const cli_game_result *g)
{
	r->sum.games++;
	r->sum.counts[g->status]++;
	r->sum.actions += g->actions;
	if (is_table(r)) {
		table_row(r, g);
		return;
	}
	switch (r->format) {
	case CLI_REPORT_TEXT:
		cli_print_diags(r->out, g->diags, r->colour_out, r->errors_only);
		break;
	case CLI_REPORT_JSON:
		puts_to(r, r->out, r->ngames_written++ ? ",\n    " : "\n    ");
		dump(r, r->out, cli_game_json(g, r->errors_only), 1, 4);
		break;
	case CLI_REPORT_JSONL:
		dump(r, r->out, cli_game_json(g, r->errors_only), 0, 0);
		puts_to(r, r->out, "\n");
		break;
	case CLI_REPORT_JUNIT: {
		if (r->failed)
			break;
		hg_buf name, body;
		hg_buf_init(&name);
		hg_buf_init(&body);
		hg_buf_printf(&name, "game %zu (line %u)", g->index, g->line);
		if (g->game_tag) {
			hg_buf_puts(&name, ": ");
			hg_buf_puts(&name, g->game_tag);
		}
		int failure = g->status == CLI_ILLEGAL;
		junit_properties(&body, g, r->errors_only);
		if (failure)
			junit_problem(&body, "failure", g->diags, r->errors_only);
		else
			junit_output(&body, g->diags, r->errors_only);
		junit_case(r, g->file, name.data, &body, failure, 0);
		hg_buf_free(&name);
		hg_buf_free(&body);
		break;
	}
	case CLI_REPORT_SARIF:
		sarif_diags(r, g->diags, g);
		break;
	}
}

void cli_report_loose(cli_report *r, const char *file, const hg_diags *d, int io)
{
	if (d->n == 0)
		return;
	if (io)
		r->sum.io_errors++;
	else if (d->nerrors)
		r->sum.stray_errors++;
	/* An input that cannot be read is said on standard error whatever the
	 * format, so that a person sees it even when the report goes to a file. */
	if (io || is_table(r))
		cli_print_diags(stderr, d, r->colour_err, r->errors_only);
	else if (r->format == CLI_REPORT_TEXT)
		cli_print_diags(r->out, d, r->colour_out, r->errors_only);
	switch (r->format) {
	case CLI_REPORT_JSON: {
		json_t *a = cli_json_diags(d, r->errors_only);
		json_array_extend(r->loose, a);
		json_decref(a);
		break;
	}
	case CLI_REPORT_JSONL: {
		json_t *o = json_object();
		json_object_set_new(o, "file", cli_json_string(file));
		json_object_set_new(o, "diagnostics", cli_json_diags(d, r->errors_only));
		if (io)
			json_object_set_new(o, "io_error", json_true());
		dump(r, r->out, o, 0, 0);
		puts_to(r, r->out, "\n");
		break;
	}
	case CLI_REPORT_JUNIT: {
		if (r->failed || (r->errors_only && !d->nerrors))
			break;
		hg_buf body;
		hg_buf_init(&body);
		if (io)
			junit_problem(&body, "error", d, r->errors_only);
		else if (d->nerrors)
			junit_problem(&body, "failure", d, r->errors_only);
		else
			junit_output(&body, d, r->errors_only);
		junit_case(r, file, io ? "reading the file" : "text outside any game", &body,
			   !io && d->nerrors > 0, io);
		hg_buf_free(&body);
		break;
	}
	case CLI_REPORT_SARIF:
		sarif_diags(r, d, NULL);
		break;
	}
}

const cli_summary *cli_report_summary(const cli_report *r)
{
	return &r->sum;
}

int cli_report_finish(cli_report *r, size_t files, double seconds)
{
	r->sum.files = files;
	r->sum.seconds = seconds;
	const cli_summary *s = &r->sum;
	if (is_table(r) && !r->table_started)
		table_row(r, NULL);	/* the header of an empty table */
	switch (r->format) {
	case CLI_REPORT_TEXT:
		if (!r->errors_only) {
			hg_buf b;
			hg_buf_init(&b);
			hg_buf_printf(&b, hg_ngettext("%zu game, %zu legal, %zu illegal, %zu unverified (%.2f s)\n",
						      "%zu games, %zu legal, %zu illegal, %zu unverified (%.2f s)\n",
						      s->games),
				      s->games, s->counts[CLI_LEGAL],
				      s->counts[CLI_ILLEGAL], s->counts[CLI_UNVERIFIED], s->seconds);
			put(r, r->out, b.data, b.len);
			hg_buf_free(&b);
		}
		break;
	case CLI_REPORT_JSON:
		puts_to(r, r->out, r->ngames_written ? "\n  ],\n  \"diagnostics\": " : "],\n  \"diagnostics\": ");
		dump(r, r->out, r->loose, 1, 2);
		r->loose = NULL;
		puts_to(r, r->out, ",\n  \"summary\": ");
		dump(r, r->out, cli_summary_json(s), 1, 2);
		puts_to(r, r->out, "\n}\n");
		break;
	case CLI_REPORT_JSONL: {
		json_t *o = json_object();
		json_object_set_new(o, "summary", cli_summary_json(s));
		dump(r, r->out, o, 0, 0);
		puts_to(r, r->out, "\n");
		break;
	}
	case CLI_REPORT_JUNIT: {
		if (r->failed)
			break;
		junit_end_suite(r);
		hg_buf b;
		hg_buf_init(&b);
		hg_buf_printf(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
			      "<testsuites name=\"herald check\" tests=\"%zu\" failures=\"%zu\" "
			      "errors=\"%zu\" time=\"%.3f\">\n",
			      r->total_tests, r->total_failures,
			      r->total_errors, s->seconds);
		put(r, r->out, b.data, b.len);
		hg_buf_free(&b);
		spool_copy(r, r->suites, r->out);
		puts_to(r, r->out, "</testsuites>\n");
		break;
	}
	case CLI_REPORT_SARIF: {
		json_t *rules = json_array();
		for (size_t i = 0; i < r->nrules; i++) {
			json_t *rule = json_object();
			json_object_set_new(rule, "id", json_string(r->rules[i]));
			json_t *help = json_object();
			const char *page = cli_rule_page(r->rules[i]);
			hg_buf text;
			hg_buf_init(&text);
			hg_buf_printf(&text, "The code %s is explained in %s.", r->rules[i], page);
			json_object_set_new(help, "text", json_string(text.data));
			json_object_set_new(rule, "shortDescription", json_deep_copy(help));
			json_object_set_new(rule, "help", help);
			/* the page as a man: URI (man(1) opens it: "man herald-notation.5") */
			hg_buf_clear(&text);
			hg_buf_printf(&text, "man:%s", page);
			json_object_set_new(rule, "helpUri", json_string(text.data));
			hg_buf_free(&text);
			json_array_append_new(rules, rule);
		}
		json_t *driver = json_object();
		json_object_set_new(driver, "name", json_string("herald"));
		json_object_set_new(driver, "version", json_string(hg_version()));
		json_object_set_new(driver, "rules", rules);
		json_t *tool = json_object();
		json_object_set_new(tool, "driver", driver);
		puts_to(r, r->out, r->nresults ? "\n  ],\n  \"tool\": " : "],\n  \"tool\": ");
		dump(r, r->out, tool, 0, 0);
		json_t *inv = json_object();
		json_object_set_new(inv, "executionSuccessful", json_boolean(s->io_errors == 0));
		json_t *invs = json_array();
		json_array_append_new(invs, inv);
		puts_to(r, r->out, ",\n  \"invocations\": ");
		dump(r, r->out, invs, 0, 0);
		json_t *props = json_object();
		json_object_set_new(props, "summary", cli_summary_json(s));
		puts_to(r, r->out, ",\n  \"properties\": ");
		dump(r, r->out, props, 0, 0);
		puts_to(r, r->out, "}]}\n");
		break;
	}
	}
	if (fflush(r->out) != 0)
		r->failed = 1;
	return r->failed ? -1 : 0;
}

void cli_report_free(cli_report *r)
{
	if (!r)
		return;
	json_decref(r->loose);
	if (r->cases)
		fclose(r->cases);
	if (r->suites)
		fclose(r->suites);
	free(r->suite_file);
	hg_strv_free(r->rules, r->nrules);
	free(r);
}
