/* test-alloc.c - allocation failure reported to the caller
 * (doc/design-apply.md, section 3): parsing, writing, converting and
 * checking a few records with the Nth allocation refused, for every N from
 * 1 until the work runs without reaching its Nth.  Each refused run must
 * return HG_ENOMEM, with hg.out-of-memory as the one diagnostic it leaves,
 * and must not crash; each complete run must give what a run without the
 * failing allocator gives.  In the sanitizer build, LeakSanitizer checks
 * that the refused runs free what they built. */
#include "unit.h"
#include "unit-parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "herald-engine.h"
#include "engine-call.h"
#include "pattern.h"

/* The library's failing allocator (util.c): defined here, and only in
 * this program, it refuses the Nth allocation a unit of work makes. */
unsigned long hg_test_fail_after;

/* jansson's allocations, refused by the same count while the writers
 * run (jansson allocates on its own: the writers tell its failures).  Not
 * while the readers do: jansson's decoder reports some of its failures as
 * bad input ("invalid token"), which no reader can tell from bad input
 * (libherald(3), ALLOCATION FAILURE). */
static int count_jansson;

static void *json_malloc_counted(size_t n)
{
	if (count_jansson && hg_test_fail_after && --hg_test_fail_after == 0)
		return NULL;
	return malloc(n);
}

/* Runs past this many allocations are a test that never ends. */
#define MAX_RUNS 100000UL

/* Three games: comments before, between and after, a variation, a NAG, a
 * glyph, a string result, and a second game with errors (a missing seat,
 * an unclosed variation) so that the diagnostics' paths are run too. */
static const char GAMES[] =
	"; before the first game\n"
	"[Game \"kingdoms-of-crusaders\"]\n"
	"{between the tags}\n"
	"[Players \"Ana; Ben\"]\n"
	"[Seed \"s\"]\n"
	"[Result \"*\"]\n"
	"\n"
	"{a note} 1. P1: draw c12 P2: draw c03! $1 (P2: draw c04 {aside}) P1: place c12 1\n"
	"2. P2: place c03 1 ; a line comment\n"
	"*\n"
	"{the trailer}\n"
	"\n"
	"[Game \"kingdoms-of-crusaders\"]\n"
	"[Date \"2026.13.01\"]\n"
	"[Result \"P1\"]\n"
	"\n"
	"1. P1: draw c12 draw ( P2: draw c03\n"
	"\"P2\"\n"
	"\n"
	"[Game \"encrucijada\"]\n"
	"[Event \"\\\"quoted\\\" \\u00e9v\\u00e9nement\"]\n"
	"[Result \"*\"]\n"
	"\n"
	"1. Norte: pasar ?? 2. Sur: robar\n"
	"*\n";

/* ------------------------------------------------------------------------
 * The loop
 * ------------------------------------------------------------------------ */

/* One run of a piece of work with the allocation `fail_at` refused (0:
 * none): its status, 0 for success. */
typedef int (*work_fn)(void *ctx, hg_diags *d, unsigned long fail_at);

/* Stops the count while a run's result is compared (the comparison
 * writes, and allocates): what is left of it, for resume_count(). */
static unsigned long pause_count(void)
{
	unsigned long left = hg_test_fail_after;
	hg_test_fail_after = 0;
	return left;
}

static void resume_count(unsigned long left)
{
	hg_test_fail_after = left;
}

/* Was the allocation refused in the run that just ended? */
static int refused(void)
{
	int was = hg_test_fail_after == 0;
	hg_test_fail_after = 0;
	return was;
}

/* Runs `work` with the Nth allocation refused for N = 1, 2, ...: a refused
 * run must return HG_ENOMEM and leave exactly hg.out-of-memory in d; the
 * first run that does not reach its Nth must succeed.  Returns how many
 * runs were refused. */
static unsigned long every_n(const char *what, work_fn work, void *ctx)
{
	for (unsigned long n = 1; n < MAX_RUNS; n++) {
		hg_diags d;
		hg_diags_init(&d);
		hg_test_fail_after = n;
		int rc = work(ctx, &d, n);
		if (!refused()) {
			ck_assert_msg(rc == 0, "%s: the run without a refusal (N = %lu) failed: %d",
				      what, n, rc);
			hg_diags_free(&d);
			return n - 1;
		}
		ck_assert_msg(rc == HG_ENOMEM, "%s: allocation %lu refused, but it returned %d (%s: %s)",
			      what, n, rc, d.n ? d.v[0].code : "", d.n ? d.v[0].message : "");
		ck_assert_msg(d.n >= 1 && strcmp(d.v[d.n - 1].code, "hg.out-of-memory") == 0,
			      "%s: allocation %lu refused, and the last diagnostic is %s", what, n,
			      d.n ? d.v[d.n - 1].code : "(none)");
		hg_diags_free(&d);
	}
	ck_abort_msg("%s: more than %lu allocations", what, MAX_RUNS);
	return 0;
}

/* ------------------------------------------------------------------------
 * The pieces of work
 * ------------------------------------------------------------------------ */

/* An opener returned NULL (short of memory, whatever the caller):
 * HG_ENOMEM, said as the calls with diagnostics say it. */
static int opener_refused(hg_diags *d)
{
	hg_diag_add(d, HG_ERROR, (hg_pos){ NULL, 0, 0 }, "hg.out-of-memory", "-");
	return HG_ENOMEM;
}

/* Every game of GAMES, as the parser reads them: 0, or HG_ENOMEM (only
 * the games before it kept, and only diagnostics of theirs in d). */
static int parse_games(unit_games *gs, hg_diags *d)
{
	hg_parser *p = hg_parser_open_mem("alloc.hgn", GAMES, strlen(GAMES));
	if (!p)
		return opener_refused(d);
	hg_game_record *g;
	int rc;
	while ((rc = hg_parser_next(p, &g, d)) == 1) {
		unit_games_push(gs, g);
	}
	if (rc != 0)
		ck_assert_ptr_null(g);
	hg_parser_close(p);
	return rc;
}

/* The games written back, each in canonical HGN. */
static char *hgn_of(const unit_games *gs)
{
	hg_buf out;
	hg_buf_init(&out);
	for (size_t i = 0; i < gs->n; i++)
		ck_assert_int_eq(hg_write_hgn(gs->v[i], &out), 0);
	return hg_buf_steal(&out);
}

/* What parsing GAMES gives without a refusal: the text written back, and
 * the diagnostics' codes. */
static char *expected_hgn, *expected_codes;

static char *codes_of(const hg_diags *d)
{
	hg_buf b;
	hg_buf_init(&b);
	for (size_t i = 0; i < d->n; i++)
		hg_buf_printf(&b, "%s %u:%u\n", d->v[i].code, d->v[i].line, d->v[i].col);
	return hg_buf_steal(&b);
}

static int work_parse(void *ctx, hg_diags *d, unsigned long fail_at)
{
	(void)ctx;
	unit_games gs = { NULL, 0 };
	int rc = parse_games(&gs, d);
	unsigned long left = pause_count();
	if (rc == 0 && fail_at) {
		char *text = hgn_of(&gs), *codes = codes_of(d);
		ck_assert_str_eq(text, expected_hgn);
		ck_assert_str_eq(codes, expected_codes);
		free(text);
		free(codes);
	}
	unit_games_free(&gs);
	resume_count(left);
	return rc;
}

/* A writer's run: HG_ENOMEM leaves the buffer as it was, marked failed. */
typedef int (*writer_fn)(const unit_games *gs, hg_buf *out);

typedef struct write_case {
	const unit_games *gs;
	writer_fn write;
	const char *expected;	/* what it writes without a refusal */
} write_case;

static int work_write(void *ctx, hg_diags *d, unsigned long fail_at)
{
	write_case *c = ctx;
	hg_buf out;
	hg_buf_init(&out);
	hg_buf_puts(&out, "before\n");
	int rc = c->write(c->gs, &out);
	if (rc == HG_ENOMEM) {
		ck_assert(hg_buf_failed(&out));
		ck_assert_str_eq(out.data, "before\n");
		/* the writers take no diagnostics: the status says it */
		hg_diag_add(d, HG_ERROR, (hg_pos){ NULL, 0, 0 }, "hg.out-of-memory", "-");
	} else if (fail_at) {
		ck_assert(!hg_buf_failed(&out));
		ck_assert_str_eq(out.data + strlen("before\n"), c->expected);
	}
	hg_buf_free(&out);
	return rc;
}

/* (the first game: it has every kind of node) */
static int write_hgn(const unit_games *gs, hg_buf *out)
{
	return hg_write_hgn(gs->v[0], out);
}

static int write_json(const unit_games *gs, hg_buf *out)
{
	return hg_write_json(gs->v, gs->n, out);
}

static int write_json_game(const unit_games *gs, hg_buf *out)
{
	return hg_write_json_game(gs->v[0], out, 0);
}

static int write_yaml(const unit_games *gs, hg_buf *out)
{
	return hg_write_yaml(gs->v, gs->n, out);
}

/* A reader's run over `text`: 0 with the games that parsing GAMES gives
 * (written back the same), or HG_ENOMEM with none. */
typedef int (*reader_fn)(const char *text, unit_games *gs, hg_diags *d);

typedef struct read_case {
	const char *text;
	reader_fn read;
	const char *expected;	/* the games written back in HGN */
} read_case;

static int work_read(void *ctx, hg_diags *d, unsigned long fail_at)
{
	read_case *c = ctx;
	unit_games gs = { NULL, 0 };
	int rc = c->read(c->text, &gs, d);
	unsigned long left = pause_count();
	if (rc == 0 && fail_at) {
		char *text = hgn_of(&gs);
		ck_assert_str_eq(text, c->expected);
		free(text);
	}
	if (rc == HG_ENOMEM)
		ck_assert_uint_eq(gs.n, 0);
	unit_games_free(&gs);
	resume_count(left);
	return rc;
}

static int read_json(const char *text, unit_games *gs, hg_diags *d)
{
	return hg_read_json("alloc.json", text, strlen(text), &gs->v, &gs->n, d);
}

static int read_yaml(const char *text, unit_games *gs, hg_diags *d)
{
	return hg_read_yaml("alloc.yaml", text, strlen(text), &gs->v, &gs->n, d);
}

/* The streaming readers, game by game: on HG_ENOMEM the games read
 * before go too (the caller of a stream would have used them). */
static int read_json_stream(const char *text, unit_games *gs, hg_diags *d)
{
	hg_json_reader *jr = hg_json_reader_open_mem("alloc.json", text, strlen(text));
	if (!jr)
		return opener_refused(d);
	hg_game_record *g;
	int rc;
	while ((rc = hg_json_reader_next(jr, &g, d)) == 1) {
		unit_games_push(gs, g);
	}
	hg_json_reader_close(jr);
	if (rc == HG_ENOMEM)
		unit_games_free(gs);
	return rc;
}

static int read_yaml_stream(const char *text, unit_games *gs, hg_diags *d)
{
	FILE *fp = fmemopen((void *)text, strlen(text), "r");
	ck_assert_ptr_nonnull(fp);
	hg_yaml_reader *yr = hg_yaml_reader_open("alloc.yaml", fp);
	int rc = yr ? HG_ENOMEM : opener_refused(d);
	hg_game_record *g;
	while (yr && (rc = hg_yaml_reader_next(yr, &g, d)) == 1) {
		unit_games_push(gs, g);
	}
	hg_yaml_reader_close(yr);
	fclose(fp);
	if (rc == HG_ENOMEM)
		unit_games_free(gs);
	return rc;
}

/* ------------------------------------------------------------------------
 * The tests
 * ------------------------------------------------------------------------ */

static unit_games parsed;

static void setup(void)
{
	json_set_alloc_funcs(json_malloc_counted, free);
	hg_diags d;
	hg_diags_init(&d);
	ck_assert_int_eq(parse_games(&parsed, &d), 0);
	ck_assert_uint_eq(parsed.n, 3);
	ck_assert_uint_gt(d.nerrors, 0);	/* the second game's */
	expected_hgn = hgn_of(&parsed);
	expected_codes = codes_of(&d);
	hg_diags_free(&d);
}

static void teardown(void)
{
	unit_games_free(&parsed);
	free(expected_hgn);
	free(expected_codes);
}

START_TEST(parser_reports_every_failure)
{
	ck_assert_uint_gt(every_n("hg_parser_next", work_parse, NULL), 20);
}
END_TEST

START_TEST(writers_report_every_failure)
{
	static const struct {
		const char *name;
		writer_fn write;
	} writers[] = {
		{ "hg_write_hgn", write_hgn },
		{ "hg_write_json", write_json },
		{ "hg_write_json_game", write_json_game },
		{ "hg_write_yaml", write_yaml },
	};
	for (size_t i = 0; i < sizeof writers / sizeof *writers; i++) {
		hg_buf want;
		hg_buf_init(&want);
		hg_buf_puts(&want, "before\n");	/* as the runs write */
		ck_assert_int_eq(writers[i].write(&parsed, &want), 0);
		write_case c = { &parsed, writers[i].write, want.data + strlen("before\n") };
		count_jansson = 1;
		ck_assert_uint_gt(every_n(writers[i].name, work_write, &c), 0);
		count_jansson = 0;
		hg_buf_free(&want);
	}
}
END_TEST

START_TEST(readers_report_every_failure)
{
	hg_buf json, yaml;
	hg_buf_init(&json);
	hg_buf_init(&yaml);
	ck_assert_int_eq(hg_write_json(parsed.v, parsed.n, &json), 0);
	ck_assert_int_eq(hg_write_yaml(parsed.v, parsed.n, &yaml), 0);
	/* what the readers give back: the games as written, whose HGN is
	 * the parsed games' */
	static const struct {
		const char *name;
		reader_fn read;
		int yaml;
	} readers[] = {
		{ "hg_read_json", read_json, 0 },
		{ "hg_json_reader_next", read_json_stream, 0 },
		{ "hg_read_yaml", read_yaml, 1 },
		{ "hg_yaml_reader_next", read_yaml_stream, 1 },
	};
	for (size_t i = 0; i < sizeof readers / sizeof *readers; i++) {
		read_case c = { readers[i].yaml ? yaml.data : json.data, readers[i].read,
				expected_hgn };
		ck_assert_uint_gt(every_n(readers[i].name, work_read, &c), 10);
	}
	hg_buf_free(&json);
	hg_buf_free(&yaml);
}
END_TEST

/* hg_check_game: the record's own parts (its fairness tags, the replay's
 * diagnostics, the result), the data loading when the session is new, and
 * the callbacks of the engines (hg_game_class.reports_enomem) report it;
 * what an engine still runs paused (Crusader Kingdoms' legal actions,
 * which hg_check_game does not call) is not counted (it still aborts). */
typedef struct check_case {
	hg_session *s;		/* NULL: a new session each run */
	hg_game_record *rec;
	int want;		/* its status without a refusal */
	const char *codes;	/* its diagnostics without a refusal */
} check_case;

static int work_check(void *ctx, hg_diags *d, unsigned long fail_at)
{
	check_case *c = ctx;
	hg_state *final = NULL;
	const hg_game_class *cls = NULL;
	hg_check_result res;
	unsigned long left = pause_count();
	hg_session *fresh = c->s ? NULL : hg_session_new(HERALD_SRCDATADIR);
	resume_count(left);
	int rc = hg_check_game(c->s ? c->s : fresh, c->rec, d, NULL, &res, &final, &cls);
	left = pause_count();
	if (rc == HG_ENOMEM) {
		ck_assert_ptr_null(final);
		ck_assert(!res.legal);
	} else if (fail_at) {
		ck_assert_int_eq(rc, c->want);
		char *codes = codes_of(d);
		ck_assert_str_eq(codes, c->codes);
		free(codes);
	}
	if (final)
		hg_state_free(cls, final);
	hg_session_free(fresh);
	resume_count(left);
	return rc == c->want ? 0 : rc;
}

static hg_game_record *record_of(const char *path)
{
	hg_diags d;
	hg_diags_init(&d);
	hg_parser *p = hg_parser_open_file(path, &d);
	ck_assert_ptr_nonnull(p);
	hg_game_record *g = NULL;
	ck_assert_int_eq(hg_parser_next(p, &g, &d), 1);
	hg_parser_close(p);
	hg_diags_free(&d);
	return g;
}

static hg_game_record *record_at(const char *record);

/* One record checked with every allocation refused in turn: in session s
 * (its data loaded before), or in a new session each run (s NULL). */
static unsigned long check_every_n(hg_session *s, const char *what, hg_game_record *rec,
				   int legal)
{
	hg_session *first = s ? s : hg_session_new(HERALD_SRCDATADIR);
	hg_diags d;
	hg_diags_init(&d);
	int want = hg_check_game(first, rec, &d, NULL, NULL, NULL, NULL);
	ck_assert_int_eq(want, legal ? 0 : -1);
	check_case c = { s, rec, want, codes_of(&d) };
	hg_diags_free(&d);
	if (!s)
		hg_session_free(first);
	unsigned long n = every_n(what, work_check, &c);
	free((char *)c.codes);
	return n;
}

START_TEST(check_reports_every_failure)
{
	/* The engines report allocation failure: their set-ups, clones,
	 * The Kingdoms of Crusaders' legal actions and result are counted */
	static const struct {
		const char *record;
		int legal;
		unsigned long allocations;	/* at least */
	} records[] = {
		{ "kingdoms-of-crusaders/valid/resignation.hgn", 1, 5 },
		{ "kingdoms-of-crusaders/illegal/after-end.hgn", 0, 8 },
		{ "kingdoms-of-crusaders/valid/seed-two-markers.hgn", 1, 5 },
		{ "crusader-kingdoms/valid/agreement.hgn", 1, 2 },
		{ "crusader-kingdoms/illegal/allies-house-rule.hgn", 0, 2 },
		{ "encrucijada/valid/activation-mutual.hgn", 1, 3 },
		{ "encrucijada/valid/steps-choose-in-order.hgn", 1, 3 },
	};
	hg_session *s = hg_session_new(HERALD_SRCDATADIR);
	for (size_t i = 0; i < sizeof records / sizeof *records; i++) {
		hg_game_record *rec = record_at(records[i].record);
		ck_assert_uint_ge(check_every_n(s, records[i].record, rec, records[i].legal),
				  records[i].allocations);
		hg_record_free(rec);
	}
	/* a variation (a clone), and an illegal action in it */
	ck_assert_uint_ge(check_every_n(s, "GAMES' first", parsed.v[0], 0), 5);
	hg_session_free(s);
}
END_TEST

/* A short game of each game, its data loaded in the same call. */
START_TEST(check_with_loading_reports_every_failure)
{
	static const char *const records[] = {
		"kingdoms-of-crusaders/valid/resignation.hgn",
		"encrucijada/valid/activation-mutual.hgn",
		"crusader-kingdoms/valid/agreement.hgn",
	};
	for (size_t i = 0; i < sizeof records / sizeof *records; i++) {
		hg_game_record *rec = record_at(records[i]);
		ck_assert_uint_gt(check_every_n(NULL, records[i], rec, 1), 100);
		hg_record_free(rec);
	}
}
END_TEST

/* Loading a game's data (hg_session_prepare) into a new session: the
 * YAML tree, the data files a record names (datafile.c), the game's
 * loader and the session's cache.  A refused run caches nothing: the same
 * session then loads the data as if nothing had happened. */
typedef struct load_case {
	hg_game_record *rec;
	const char *codes;	/* its diagnostics without a refusal */
} load_case;

static int work_load(void *ctx, hg_diags *d, unsigned long fail_at)
{
	load_case *c = ctx;
	unsigned long left = pause_count();
	hg_session *s = hg_session_new(HERALD_SRCDATADIR);
	resume_count(left);
	const hg_game_class *cls = NULL;
	const hg_gdata *data = NULL;
	int rc = hg_session_prepare(s, c->rec, &cls, &data, d);
	left = pause_count();
	if (rc == HG_ENOMEM) {
		hg_diags again;
		hg_diags_init(&again);
		ck_assert_int_eq(hg_session_prepare(s, c->rec, &cls, &data, &again), 0);
		ck_assert_ptr_nonnull(data);
		ck_assert_uint_eq(again.n, 0);
		hg_diags_free(&again);
	} else if (fail_at) {
		ck_assert_int_eq(rc, 0);
		ck_assert_ptr_nonnull(data);
		char *codes = codes_of(d);
		ck_assert_str_eq(codes, c->codes);
		free(codes);
	}
	hg_session_free(s);
	resume_count(left);
	return rc;
}

/* A record of records/, parsed. */
static hg_game_record *record_at(const char *record)
{
	char path[512];
	snprintf(path, sizeof path, "%s/../records/%s", HERALD_SRCDATADIR, record);
	return record_of(path);
}

START_TEST(data_loading_reports_every_failure)
{
	/* data files the records name (each game's bundled data is loaded in
	 * check_with_loading_reports_every_failure) */
	static const char *const records[] = {
		"kingdoms-of-crusaders/valid/own-deck.hgn",
		"encrucijada/valid/own-cards.hgn",
		"crusader-kingdoms/valid/muslims-turn-castles.hgn",
	};
	for (size_t i = 0; i < sizeof records / sizeof *records; i++) {
		hg_game_record *rec = record_at(records[i]);
		hg_session *s = hg_session_new(HERALD_SRCDATADIR);
		const hg_game_class *cls;
		const hg_gdata *data;
		hg_diags d;
		hg_diags_init(&d);
		ck_assert_int_eq(hg_session_prepare(s, rec, &cls, &data, &d), 0);
		hg_session_free(s);
		load_case c = { rec, codes_of(&d) };
		hg_diags_free(&d);
		ck_assert_uint_gt(every_n(records[i], work_load, &c), 100);
		free((char *)c.codes);
		hg_record_free(rec);
	}
}
END_TEST

/* hg_canonicalize: short of memory, each action is as it was or rewritten
 * whole, so the record is still written; a complete run rewrites it as an
 * undisturbed run does. */
typedef struct canon_case {
	hg_session *s;
	const char *path;
	const char *expected;	/* the record rewritten, in HGN */
} canon_case;

static int work_canonicalize(void *ctx, hg_diags *d, unsigned long fail_at)
{
	canon_case *c = ctx;
	unsigned long left = pause_count();
	hg_game_record *rec = record_of(c->path);
	resume_count(left);
	int rc = hg_canonicalize(c->s, rec, d);
	left = pause_count();
	hg_buf out;
	hg_buf_init(&out);
	ck_assert_int_eq(hg_write_hgn(rec, &out), 0);
	if (rc == 0 && fail_at)
		ck_assert_str_eq(out.data, c->expected);
	hg_buf_free(&out);
	hg_record_free(rec);
	resume_count(left);
	return rc;
}

START_TEST(canonicalize_reports_every_failure)
{
	static const char *const records[] = {
		"kingdoms-of-crusaders/valid/location-names.hgn",
		"crusader-kingdoms/valid/agreement.hgn",
		"encrucijada/valid/activation-mutual.hgn",
	};
	hg_session *s = hg_session_new(HERALD_SRCDATADIR);
	for (size_t i = 0; i < sizeof records / sizeof *records; i++) {
		char path[512];
		snprintf(path, sizeof path, "%s/../records/%s", HERALD_SRCDATADIR, records[i]);
		hg_game_record *rec = record_of(path);
		hg_diags d;
		hg_diags_init(&d);
		ck_assert_int_eq(hg_canonicalize(s, rec, &d), 0);
		hg_buf want;
		hg_buf_init(&want);
		ck_assert_int_eq(hg_write_hgn(rec, &want), 0);
		canon_case c = { s, path, want.data };
		ck_assert_uint_gt(every_n(records[i], work_canonicalize, &c), 0);
		hg_buf_free(&want);
		hg_diags_free(&d);
		hg_record_free(rec);
	}
	hg_session_free(s);
}
END_TEST

/* hg_generate: NULL with hg.out-of-memory, or the game an undisturbed
 * run generates from the same seed. */
typedef struct gen_case {
	hg_session *s;
	const hg_game_class *cls;
	const char *expected;	/* in HGN */
} gen_case;

static int work_generate(void *ctx, hg_diags *d, unsigned long fail_at)
{
	gen_case *c = ctx;
	hg_game_record *rec = hg_generate(c->s, c->cls, "alloc", 0, NULL, d);
	unsigned long left = pause_count();
	int rc = rec ? 0 : d->n && strcmp(d->v[d->n - 1].code, "hg.out-of-memory") == 0
				  ? HG_ENOMEM : -1;
	if (rec && fail_at) {
		hg_buf out;
		hg_buf_init(&out);
		ck_assert_int_eq(hg_write_hgn(rec, &out), 0);
		ck_assert_str_eq(out.data, c->expected);
		hg_buf_free(&out);
	}
	hg_record_free(rec);
	resume_count(left);
	return rc;
}

START_TEST(generate_reports_every_failure)
{
	hg_session *s = hg_session_new(HERALD_SRCDATADIR);
	static const char *const ids[] = { "kingdoms-of-crusaders", "encrucijada" };
	for (size_t i = 0; i < sizeof ids / sizeof *ids; i++) {
		const hg_game_class *cls = hg_game_find(ids[i]);
		hg_diags d;
		hg_diags_init(&d);
		hg_game_record *rec = hg_generate(s, cls, "alloc", 0, NULL, &d);
		ck_assert_ptr_nonnull(rec);
		hg_buf want;
		hg_buf_init(&want);
		ck_assert_int_eq(hg_write_hgn(rec, &want), 0);
		gen_case c = { s, cls, want.data };
		ck_assert_uint_gt(every_n(ids[i], work_generate, &c), 10);
		hg_buf_free(&want);
		hg_record_free(rec);
		hg_diags_free(&d);
	}
	hg_session_free(s);
}
END_TEST

/* Outside a unit of work, a buffer that cannot grow is what it always
 * was: the failing allocator refuses nothing there. */
START_TEST(buffer_outside_a_unit)
{
	hg_test_fail_after = 1;
	hg_buf b;
	hg_buf_init(&b);
	hg_buf_printf(&b, "%s", "not refused");
	ck_assert_str_eq(b.data, "not refused");
	ck_assert(!hg_buf_failed(&b));
	ck_assert_uint_eq(hg_test_fail_after, 1);
	hg_test_fail_after = 0;
	hg_buf_free(&b);
}
END_TEST

/* ------------------------------------------------------------------------
 * The engines' callbacks (engine-call.h, hg_game_class.reports_enomem)
 * ------------------------------------------------------------------------ */

/* An engine whose every callback allocates once through hg_try_malloc and
 * then, whatever became of that, succeeds: what the core makes of an
 * allocation lost in it is the core's, once for every engine. */
static int fake_ran_reporting;	/* the last callback ran in the unit, not paused */

static void fake_allocate(void)
{
	fake_ran_reporting = hg_alloc_reporting();
	free(hg_try_malloc(32));
}

static hg_state *fake_setup(const hg_gdata *g, const hg_game_record *rec, hg_diags *d)
{
	(void)g, (void)rec, (void)d;
	fake_allocate();
	return (hg_state *)hg_xmalloc(8);
}

static hg_state *fake_clone(const hg_state *s)
{
	(void)s;
	fake_allocate();
	return (hg_state *)hg_xmalloc(8);
}

static void fake_free(void *p)
{
	free(p);
}

static void fake_free_state(hg_state *s)
{
	free(s);
}

static void fake_free_action(hg_action *a)
{
	free(a);
}

static hg_action *fake_parse(const hg_state *s, const hg_action_text *t, hg_diags *d)
{
	(void)s, (void)t, (void)d;
	fake_allocate();
	return (hg_action *)hg_xmalloc(8);
}

static int fake_apply(hg_state *s, const hg_action *a, hg_diags *d)
{
	(void)s, (void)a, (void)d;
	fake_allocate();
	return 0;
}

static void fake_legal(const hg_state *s, hg_action_list *out)
{
	(void)s;
	hg_action *a = (hg_action *)hg_xmalloc(8);
	if (hg_action_list_push(out, a) != 0)
		free(a);
	fake_allocate();
}

static void fake_render(const hg_state *s, hg_buf *out)
{
	(void)s;
	fake_allocate();
	hg_buf_puts(out, "the position");
}

/* Each callback run through the core with the unit's first allocation in
 * it refused: for `reports` 0 it runs paused (nothing refused, it
 * succeeds); with every bit set it runs in the unit and its call ends in
 * the contract's failure, what it returned freed (LeakSanitizer). */
START_TEST(engine_call_maps_a_lost_allocation)
{
	hg_game_class fake = {
		.id = "fake",
		.setup = fake_setup,
		.clone = fake_clone,
		.free_state = fake_free_state,
		.parse = fake_parse,
		.apply = fake_apply,
		.free_action = fake_free_action,
		.legal = fake_legal,
		.render = fake_render,
	};
	hg_state *st = fake_setup(NULL, NULL, NULL);
	for (int reports = 0; reports <= 1; reports++) {
		fake.reports_enomem = reports ? HG_REPORTS_ALL : 0;
		for (int callback = 0; callback < 6; callback++) {
			hg_diags d;
			hg_diags_init(&d);
			hg_alloc_unit u;
			hg_alloc_unit_begin(&u);
			hg_test_fail_after = 1;
			int failed = 0;
			switch (callback) {
			case 0: {
				hg_state *s = hg_engine_setup(&fake, NULL, NULL, &d);
				failed = !s;
				fake_free(s);
				break;
			}
			case 1: {
				hg_state *s = hg_engine_clone(&fake, st);
				failed = !s;
				fake_free(s);
				break;
			}
			case 2: {
				hg_action *a = hg_engine_parse(&fake, st, NULL, &d);
				failed = !a;
				fake_free(a);
				break;
			}
			case 3:
				failed = hg_engine_apply(&fake, st, NULL, &d) == HG_ENOMEM;
				break;
			case 4: {
				hg_action_list l = { 0 };
				int rc = hg_engine_legal(&fake, st, &l);
				failed = rc == HG_ENOMEM;
				ck_assert_uint_eq(l.n, failed ? 0 : 1);
				for (size_t i = 0; i < l.n; i++)
					fake_free(l.v[i]);
				free(l.v);
				break;
			}
			case 5: {
				hg_buf out;
				hg_buf_init(&out);
				failed = hg_engine_render(&fake, st, &out) == HG_ENOMEM;
				hg_buf_free(&out);
				break;
			}
			}
			ck_assert_msg(fake_ran_reporting == reports,
				      "callback %d: ran %s", callback,
				      fake_ran_reporting ? "in the unit" : "paused");
			ck_assert_msg(failed == reports, "callback %d: %s", callback,
				      failed ? "failed" : "succeeded");
			ck_assert_int_eq(hg_alloc_unit_end(&u, &d, 0, (hg_pos){ NULL, 0, 0 }),
					 reports ? HG_ENOMEM : 0);
			ck_assert_uint_eq(hg_test_fail_after, reports ? 0 : 1);
			hg_test_fail_after = 0;
			hg_diags_free(&d);
		}
	}
	fake_free(st);
}
END_TEST

/* The engines' callbacks as the core calls them, over a record's main
 * line, in a unit of the test's own: at each action the legal actions and
 * the picture of the position, then the action parsed and applied.  What
 * an engine reports from (its HG_REPORTS_* bits) is refused in turn;
 * what it runs paused is not counted (libherald(3), ALLOCATION FAILURE).
 * A complete run gives each position's picture and number of legal
 * actions as an undisturbed run does. */
typedef struct engine_case {
	const hg_game_class *cls;
	const hg_gdata *data;
	hg_game_record *rec;
	const char *expected;	/* the trace of an undisturbed run */
} engine_case;

/* Appends to the trace outside the count: the test's own allocation. */
static void trace_add(hg_buf *trace, const char *what, size_t n, const hg_buf *render)
{
	unsigned depth = hg_alloc_pause();
	hg_buf_printf(trace, "%s %zu\n%s", what, n, render->data ? render->data : "");
	hg_alloc_resume(depth);
}

static void replay_callbacks(const engine_case *c, hg_diags *d, hg_buf *trace)
{
	const hg_game_class *cls = c->cls;
	hg_state *st = hg_engine_setup(cls, c->data, c->rec, d);
	if (!st)
		return;
	hg_buf render;
	hg_buf_init(&render);
	const hg_line *line = &c->rec->moves;
	for (size_t i = 0; i < line->n && !hg_alloc_lost(); i++) {
		const hg_node *n = &line->nodes[i];
		if (n->kind != HG_NODE_ACTION || hg_action_is_resign(&n->action))
			continue;
		hg_action_list legal = { 0 };
		int rc = hg_engine_legal(cls, st, &legal);
		for (size_t k = 0; k < legal.n; k++)
			cls->free_action(legal.v[k]);
		free(legal.v);
		hg_buf_clear(&render);
		if (rc != 0 || hg_engine_render(cls, st, &render) != 0)
			break;
		trace_add(trace, "legal", legal.n, &render);
		hg_action *a = hg_engine_parse(cls, st, &n->action, d);
		if (!a)
			break;
		rc = hg_engine_apply(cls, st, a, d);
		cls->free_action(a);
		if (rc != 0)
			break;
	}
	hg_buf_free(&render);
	cls->free_state(st);
}

static int work_callbacks(void *ctx, hg_diags *d, unsigned long fail_at)
{
	engine_case *c = ctx;
	hg_buf trace;
	hg_buf_init(&trace);
	hg_alloc_unit u;
	size_t n0 = d->n;
	hg_alloc_unit_begin(&u);
	replay_callbacks(c, d, &trace);
	int rc = hg_alloc_unit_end(&u, d, n0, c->rec->pos);
	unsigned long left = pause_count();
	if (rc == 0) {
		ck_assert_uint_eq(d->nerrors, 0);
		if (fail_at)
			ck_assert_str_eq(trace.data ? trace.data : "", c->expected);
	}
	hg_buf_free(&trace);
	resume_count(left);
	return rc;
}

static unsigned long callbacks_every_n(hg_session *s, const char *record)
{
	hg_game_record *rec = record_at(record);
	hg_diags d;
	hg_diags_init(&d);
	engine_case c = { NULL, NULL, rec, NULL };
	ck_assert_int_eq(hg_session_prepare(s, rec, &c.cls, &c.data, &d), 0);
	hg_buf want;
	hg_buf_init(&want);
	replay_callbacks(&c, &d, &want);
	ck_assert_uint_eq(d.n, 0);
	ck_assert_uint_gt(want.len, 0);
	c.expected = want.data;
	unsigned long n = every_n(record, work_callbacks, &c);
	hg_buf_free(&want);
	hg_diags_free(&d);
	hg_record_free(rec);
	return n;
}

START_TEST(engine_callbacks_report_every_failure)
{
	static const struct {
		const char *record;
		unsigned long allocations;	/* at least */
	} records[] = {
		/* parse: the spare action block; legal; render */
		{ "kingdoms-of-crusaders/valid/seed-two-markers.hgn", 1000 },
		/* parse: most of the cards the rules name, a block for the
		 * longest actions; render */
		{ "crusader-kingdoms/valid/events-and-responses.hgn", 10 },
		/* render: the script's next round (a copy of the state) */
		{ "crusader-kingdoms/valid/worked-script-example.hgn", 20 },
		/* parse: the spare action block; render */
		{ "encrucijada/valid/example-invasion.hgn", 10 },
	};
	hg_session *s = hg_session_new(HERALD_SRCDATADIR);
	for (size_t i = 0; i < sizeof records / sizeof *records; i++)
		ck_assert_uint_ge(callbacks_every_n(s, records[i].record), records[i].allocations);
	hg_session_free(s);
}
END_TEST

/* A match that needs PCRE2's heap (its backtracking frames, past what the
 * match's own stack block holds) is told there is no memory when the unit
 * refuses it: no match, and the unit failed. */
START_TEST(pattern_match_reports_a_failure)
{
	hg_pattern *p = hg_pattern_new("(?:(a)|b)*c");
	char subject[4001];
	memset(subject, 'a', sizeof subject - 2);
	subject[sizeof subject - 2] = 'c';
	subject[sizeof subject - 1] = '\0';
	hg_match m;
	ck_assert_int_eq(hg_pattern_match(p, subject, &m), 1);
	hg_alloc_unit u;
	hg_alloc_unit_begin(&u);
	hg_test_fail_after = 1;
	int matched = hg_pattern_match(p, subject, &m);
	ck_assert(refused());
	ck_assert_int_eq(matched, 0);
	ck_assert(hg_alloc_unit_failed());
	ck_assert_int_eq(hg_alloc_unit_end(&u, NULL, 0, (hg_pos){ NULL, 0, 0 }), HG_ENOMEM);
	hg_pattern_free(p);
}
END_TEST

Suite *unit_suite(void)
{
	Suite *s = suite_create("alloc");
	TCase *tc = tcase_create("every allocation refused in turn");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, parser_reports_every_failure);
	tcase_add_test(tc, writers_report_every_failure);
	tcase_add_test(tc, readers_report_every_failure);
	tcase_add_test(tc, check_reports_every_failure);
	tcase_add_test(tc, buffer_outside_a_unit);
	suite_add_tcase(s, tc);
	TCase *data = tcase_create("the games' data loaded with every allocation refused in turn");
	tcase_set_timeout(data, 300);
	tcase_add_test(data, data_loading_reports_every_failure);
	tcase_add_test(data, check_with_loading_reports_every_failure);
	tcase_add_test(data, canonicalize_reports_every_failure);
	tcase_add_test(data, generate_reports_every_failure);
	suite_add_tcase(s, data);
	TCase *engines = tcase_create("the engines' callbacks with every allocation refused in turn");
	tcase_set_timeout(engines, 300);
	tcase_add_test(engines, engine_call_maps_a_lost_allocation);
	tcase_add_test(engines, engine_callbacks_report_every_failure);
	tcase_add_test(engines, pattern_match_reports_a_failure);
	suite_add_tcase(s, engines);
	return s;
}
