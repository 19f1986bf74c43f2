/* test-alloc.c - allocation failure reported to the caller
 * (doc/design-apply.md, section 3): parsing, writing, converting and
 * checking a few records, a game master's changes to a game and a seat's
 * view, with the Nth allocation refused, for every N from
 * 1 until the work runs without reaching its Nth.  Each refused run must
 * return HG_ENOMEM, with hg.out-of-memory as the one diagnostic it leaves,
 * and must not crash; each complete run must give what a run without the
 * failing allocator gives.  In the sanitizer build, LeakSanitizer checks
 * that the refused runs free what they built. */
#include "unit.h"
#include "unit-parse.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* `call` run paused and out of the count: a fixture's work (an engine's
 * setup, a comparison) that the sweep must not refuse, even where it
 * calls a public function that is a unit of its own. */
#define UNCOUNTED(call)							\
	do {								\
		unsigned long left_ = pause_count();			\
		HG_PAUSED(call);					\
		resume_count(left_);					\
	} while (0)

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
static int parse_games(unit_games *gs, hg_diags *d, int stream)
{
	hg_parser *p;
	if (stream) {
		/* (the count paused: the stream is the test's, not the parser's) */
		unsigned long left = pause_count();
		FILE *fp = fmemopen((void *)GAMES, strlen(GAMES), "r");
		resume_count(left);
		ck_assert_ptr_nonnull(fp);
		p = hg_parser_open_stream("alloc.hgn", fp, 1);	/* (NULL: fp closed) */
	} else {
		p = hg_parser_open_mem("alloc.hgn", GAMES, strlen(GAMES));
	}
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

/* What parsing GAMES gives without a refusal: the text written back
 * (what the readers must give back). */
static char *expected_hgn;

static char *codes_of(const hg_diags *d)
{
	hg_buf b;
	hg_buf_init(&b);
	for (size_t i = 0; i < d->n; i++)
		hg_buf_printf(&b, "%s %u:%u\n", d->v[i].code, d->v[i].line, d->v[i].col);
	return hg_buf_steal(&b);
}

/* ------------------------------------------------------------------------
 * One harness for the sweeps below: a table of cases, each a piece of work
 * run with every allocation refused in turn (every_n) and compared with
 * its undisturbed run.
 * ------------------------------------------------------------------------ */

/* A piece of work.  run does it once, the count running, and returns its
 * status with what it made in *made; show, the count paused, checks what a
 * run that returned HG_ENOMEM must leave, writes what the run made as text
 * in out (a complete run's must be the undisturbed run's), and frees it. */
typedef struct sweep_case {
	const char *name;
	int (*run)(const void *arg, void **made, hg_diags *d);
	void (*show)(const void *arg, void *made, int rc, hg_diags *d, hg_buf *out);
	const void *arg;
	int status;		/* of the undisturbed run: 0, or -1 */
	unsigned long min;	/* allocations refused, at least */
	const char *expected;	/* what show writes; NULL: the undisturbed run's */
} sweep_case;

/* A case, and what its undisturbed run wrote. */
typedef struct swept {
	const sweep_case *c;
	const char *expected;
} swept;

static int run_case(const sweep_case *c, hg_diags *d, hg_buf *out)
{
	void *made = NULL;
	int rc = c->run(c->arg, &made, d);
	unsigned long left = pause_count();
	c->show(c->arg, made, rc, d, out);
	resume_count(left);
	return rc;
}

static int work_case(void *ctx, hg_diags *d, unsigned long fail_at)
{
	const swept *w = ctx;
	hg_buf out;
	hg_buf_init(&out);
	int rc = run_case(w->c, d, &out);
	if (rc != HG_ENOMEM && fail_at) {
		ck_assert_msg(rc == w->c->status, "%s: allocation %lu refused, and it returned %d",
			      w->c->name, fail_at, rc);
		ck_assert_str_eq(out.data ? out.data : "", w->expected);
	}
	hg_buf_free(&out);
	return rc == w->c->status ? 0 : rc;
}

/* Sweeps each case: its undisturbed run, then every_n. */
static void sweep(const sweep_case *cases, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const sweep_case *c = &cases[i];
		hg_diags d;
		hg_diags_init(&d);
		hg_buf first;
		hg_buf_init(&first);
		ck_assert_int_eq(run_case(c, &d, &first), c->status);
		swept w = { c, first.data ? first.data : "" };
		if (c->expected)
			ck_assert_str_eq(w.expected, c->expected);
		ck_assert_uint_ge(every_n(c->name, work_case, &w), c->min);
		hg_buf_free(&first);
		hg_diags_free(&d);
	}
}

/* ------------------------------------------------------------------------
 * The pieces of work swept
 * ------------------------------------------------------------------------ */

/* The games parsed or read, written back in HGN; on HG_ENOMEM there are
 * none (the parser keeps those before, which its show drops). */
static void games_free(unit_games *gs)
{
	unit_games_free(gs);
	free(gs);
}

static unit_games *games_new(void)
{
	unit_games *gs = calloc(1, sizeof *gs);
	ck_assert_ptr_nonnull(gs);
	return gs;
}

/* Every game of GAMES, as the parser reads them: the games and the
 * diagnostics' codes. */
static int run_parse(const void *arg, void **made, hg_diags *d)
{
	unit_games *gs = games_new();
	*made = gs;
	return parse_games(gs, d, arg != NULL);
}

static void show_parsed(const void *arg, void *made, int rc, hg_diags *d, hg_buf *out)
{
	(void)arg;
	if (rc == 0) {
		char *text = hgn_of(made), *codes = codes_of(d);
		hg_buf_printf(out, "%s%s", text, codes);
		free(text);
		free(codes);
	}
	games_free(made);
}

/* A writer's run: HG_ENOMEM leaves the buffer as it was, marked failed. */
typedef int (*writer_fn)(const unit_games *gs, hg_buf *out);

typedef struct writer {
	writer_fn write;
} writer;

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

static unit_games parsed;

static int run_write(const void *arg, void **made, hg_diags *d)
{
	(void)d;
	const writer *w = arg;
	hg_buf *out = malloc(sizeof *out);
	ck_assert_ptr_nonnull(out);
	hg_buf_init(out);
	hg_buf_puts(out, "before\n");
	*made = out;
	count_jansson = 1;
	int rc = w->write(&parsed, out);
	count_jansson = 0;
	return rc;
}

static void show_written(const void *arg, void *made, int rc, hg_diags *d, hg_buf *out)
{
	(void)arg;
	hg_buf *b = made;
	if (rc == HG_ENOMEM) {
		ck_assert(hg_buf_failed(b));
		ck_assert_str_eq(b->data, "before\n");
		/* the writers take no diagnostics: the status says it */
		hg_diag_add(d, HG_ERROR, (hg_pos){ NULL, 0, 0 }, "hg.out-of-memory", "-");
	} else {
		ck_assert(!hg_buf_failed(b));
		hg_buf_puts(out, b->data + strlen("before\n"));
	}
	hg_buf_free(b);
	free(b);
}

/* A reader's run over `text`: 0 with the games that parsing GAMES gives
 * (written back the same), or HG_ENOMEM with none. */
typedef int (*reader_fn)(const char *text, unit_games *gs, hg_diags *d);

typedef struct reader {
	const char *text;
	reader_fn read;
} reader;

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

static int run_read(const void *arg, void **made, hg_diags *d)
{
	const reader *r = arg;
	unit_games *gs = games_new();
	*made = gs;
	return r->read(r->text, gs, d);
}

static void show_read(const void *arg, void *made, int rc, hg_diags *d, hg_buf *out)
{
	(void)arg;
	(void)d;
	unit_games *gs = made;
	if (rc == HG_ENOMEM) {
		ck_assert_uint_eq(gs->n, 0);
	} else {
		char *text = hgn_of(gs);
		hg_buf_puts(out, text);
		free(text);
	}
	games_free(gs);
}

/* hg_check_game: the record's own parts (its fairness tags, the replay's
 * diagnostics, the result), the data loading when the session is new, and
 * the callbacks of the engines (hg_game_class.reports_enomem) report it;
 * what an engine still runs paused (Crusader Kingdoms' legal actions,
 * which hg_check_game does not call) is not counted (it still aborts).
 * Its status and diagnostics. */
typedef struct check_arg {
	hg_session *s;		/* NULL: a new session each run */
	hg_game_record *rec;
} check_arg;

typedef struct check_made {
	hg_session *fresh;
	hg_state *final;
	const hg_game_class *cls;
	hg_check_result res;
} check_made;

static int run_check(const void *arg, void **made, hg_diags *d)
{
	const check_arg *c = arg;
	check_made *m = calloc(1, sizeof *m);
	ck_assert_ptr_nonnull(m);
	*made = m;
	if (!c->s) {
		unsigned long left = pause_count();
		m->fresh = hg_session_new(HERALD_SRCDATADIR);
		resume_count(left);
	}
	return hg_check_game(c->s ? c->s : m->fresh, c->rec, d, NULL, &m->res, &m->final,
			     &m->cls);
}

static void show_checked(const void *arg, void *made, int rc, hg_diags *d, hg_buf *out)
{
	(void)arg;
	check_made *m = made;
	if (rc == HG_ENOMEM) {
		ck_assert_ptr_null(m->final);
		ck_assert(!m->res.legal);
	} else {
		char *codes = codes_of(d);
		hg_buf_puts(out, codes);
		free(codes);
	}
	if (m->final)
		hg_state_free(m->cls, m->final);
	hg_session_free(m->fresh);
	free(m);
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

/* A record of records/, parsed. */
static hg_game_record *record_at(const char *record)
{
	char path[512];
	snprintf(path, sizeof path, "%s/../records/%s", HERALD_SRCDATADIR, record);
	return record_of(path);
}

/* Loading a game's data (hg_session_prepare) into a new session: the
 * YAML tree, the data files a record names (datafile.c), the game's
 * loader and the session's cache.  A refused run caches nothing: the same
 * session then loads the data as if nothing had happened.  Its
 * diagnostics. */
typedef struct load_made {
	hg_session *s;
	const hg_gdata *data;
} load_made;

static int run_load(const void *arg, void **made, hg_diags *d)
{
	load_made *m = calloc(1, sizeof *m);
	ck_assert_ptr_nonnull(m);
	*made = m;
	unsigned long left = pause_count();
	m->s = hg_session_new(HERALD_SRCDATADIR);
	resume_count(left);
	const hg_game_class *cls;
	return hg_session_prepare(m->s, arg, &cls, &m->data, d);
}

static void show_loaded(const void *arg, void *made, int rc, hg_diags *d, hg_buf *out)
{
	load_made *m = made;
	if (rc == HG_ENOMEM) {
		hg_diags again;
		hg_diags_init(&again);
		const hg_game_class *cls;
		ck_assert_int_eq(hg_session_prepare(m->s, arg, &cls, &m->data, &again), 0);
		ck_assert_uint_eq(again.n, 0);
		hg_diags_free(&again);
	} else {
		char *codes = codes_of(d);
		hg_buf_puts(out, codes);
		free(codes);
	}
	ck_assert_ptr_nonnull(m->data);
	hg_session_free(m->s);
	free(m);
}

/* hg_canonicalize: short of memory, each action is as it was or rewritten
 * whole, so the record is still written; a complete run rewrites it as an
 * undisturbed run does.  The record in HGN. */
typedef struct canon_arg {
	hg_session *s;
	char path[512];
} canon_arg;

static int run_canonicalize(const void *arg, void **made, hg_diags *d)
{
	const canon_arg *c = arg;
	unsigned long left = pause_count();
	hg_game_record *rec = record_of(c->path);
	resume_count(left);
	*made = rec;
	return hg_canonicalize(c->s, rec, d);
}

/* A record in HGN (a record built short of memory too is written). */
static void show_record(const void *arg, void *made, int rc, hg_diags *d, hg_buf *out)
{
	(void)arg;
	(void)d;
	hg_buf text;
	hg_buf_init(&text);
	if (made)
		ck_assert_int_eq(hg_write_hgn(made, &text), 0);
	if (rc == 0)
		hg_buf_puts(out, text.data ? text.data : "");
	hg_buf_free(&text);
	hg_record_free(made);
}

/* hg_generate: NULL with hg.out-of-memory, or the game an undisturbed
 * run generates from the same seed. */
typedef struct gen_arg {
	hg_session *s;
	const hg_game_class *cls;
} gen_arg;

static int run_generate(const void *arg, void **made, hg_diags *d)
{
	const gen_arg *g = arg;
	hg_game_record *rec = hg_generate(g->s, g->cls, "alloc", 0, NULL, d);
	*made = rec;
	return rec ? 0 : d->n && strcmp(d->v[d->n - 1].code, "hg.out-of-memory") == 0
			 ? HG_ENOMEM : -1;
}

/* ------------------------------------------------------------------------
 * The public functions called directly, outside any unit of work: each
 * reports short of memory as herald.h's rule says (NULL, HG_ENOMEM, a
 * buffer marked failed, a diagnostic or note counted lost), with its
 * outputs as documented (what it changes left as it was).  A run that met
 * a refusal adds hg.out-of-memory itself (the harness's mark of a
 * reported failure).
 * ------------------------------------------------------------------------ */

/* This test's switch in util.c: a buffer's allocations are counted outside
 * a unit too while it is on. */
int hg_test_count_outside;

/* HG_ENOMEM, with the harness's diagnostic, when `lost`; else 0. */
static int direct_status(int lost, hg_diags *d)
{
	if (!lost)
		return 0;
	unsigned long left = pause_count();
	hg_alloc_report(d, (hg_pos){ NULL, 0, 0 });
	resume_count(left);
	return HG_ENOMEM;
}

/* hg_record_new, hg_record_set_tag (appending, then replacing), hg_line_new
 * and hg_line_push: a record built by hand. */
static int run_record_direct(const void *arg, void **made, hg_diags *d)
{
	(void)arg;
	hg_game_record *g = hg_record_new("direct.hgn");
	*made = g;
	if (!g)
		return direct_status(1, d);
	static const char *const tags[][2] = {
		{ "Game", "kingdoms-of-crusaders" }, { "Players", "Ana; Ben" },
		{ "Result", "*" }, { "Result", "P1" },
	};
	for (size_t i = 0; i < HG_ARRAY_LEN(tags); i++) {
		size_t n = g->ntags;
		const char *was = hg_record_tag_value(g, tags[i][0]);
		int rc = hg_record_set_tag(g, tags[i][0], tags[i][1]);
		if (rc != 0) {
			ck_assert_int_eq(rc, HG_ENOMEM);
			ck_assert_uint_eq(g->ntags, n);	/* as it was */
			ck_assert_ptr_eq(hg_record_tag_value(g, tags[i][0]), was);
			return direct_status(1, d);
		}
	}
	hg_pos pos = { g->file, 1, 1 };
	size_t n = g->moves.n;
	hg_node *num = hg_line_push(&g->moves, HG_NODE_MOVENUM, pos);
	if (!num) {
		ck_assert_uint_eq(g->moves.n, n);
		return direct_status(1, d);
	}
	num->number = 1;
	hg_line *var = hg_line_new();
	if (!var)
		return direct_status(1, d);
	hg_node *c = hg_line_push(var, HG_NODE_NAG, pos);
	hg_node *v = c ? hg_line_push(&g->moves, HG_NODE_VARIATION, pos) : NULL;
	if (!v) {
		hg_line_free(var);
		free(var);
		return direct_status(1, d);
	}
	c->number = 3;
	v->variation = var;
	return 0;
}

/* hg_action_text_set (it takes d: hg.out-of-memory is its own) and
 * hg_action_list_push. */
static int run_action_direct(const void *arg, void **made, hg_diags *d)
{
	(void)arg;
	*made = NULL;
	hg_action_text t;
	int rc = hg_action_text_set(&t, "P1", "place c12 1", (hg_pos){ "a.hgn", 3, 4 }, d);
	if (rc != 0) {
		ck_assert_int_eq(rc, HG_ENOMEM);
		ck_assert_ptr_null(t.text);	/* t empty */
		ck_assert_uint_eq(t.ntoks, 0);
		return rc;
	}
	hg_action_list l = { 0 };
	int pushed = hg_action_list_push(&l, (hg_action *)&t);
	ck_assert(pushed == 0 || (pushed == HG_ENOMEM && l.n == 0));
	unsigned long left = pause_count();
	hg_buf *text = calloc(1, sizeof *text);
	ck_assert_ptr_nonnull(text);
	hg_buf_printf(text, "%s: %s (%zu tokens, %zu listed)", t.seat, t.text, t.ntoks, l.n);
	resume_count(left);
	*made = text;
	free(l.v);
	hg_action_text_free(&t);
	return direct_status(pushed != 0, d);
}

/* Diagnostics and notes added, and moved, into lists of the run's own:
 * what could not be made is counted (hg_diags_lost), and what was made is
 * whole. */
static int run_diags_direct(const void *arg, void **made, hg_diags *d)
{
	(void)arg;
	hg_diags *mine = calloc(2, sizeof *mine);
	ck_assert_ptr_nonnull(mine);
	*made = mine;
	hg_diags_init(&mine[0]);
	hg_diags_init(&mine[1]);
	int notes_lost = 0;
	for (unsigned i = 1; i <= 3; i++) {
		size_t n = mine[1].n, nlost = mine[1].nlost;
		hg_diag *dg = hg_diag_add(&mine[1], HG_ERROR, (hg_pos){ "d.hgn", i, 2 },
					  "test.direct", "diagnostic %u of %s", i, "three");
		ck_assert_ptr_nonnull(dg);	/* (a stand-in when dropped) */
		/* made, or dropped and counted */
		ck_assert((mine[1].n == n + 1 && mine[1].nlost == nlost) ||
			  (mine[1].n == n && mine[1].nlost == nlost + 1));
		if (hg_diag_note(dg, "note %u", i) != 0)
			notes_lost = 1;
	}
	int moved = hg_diags_move(&mine[0], &mine[1]);
	ck_assert_uint_eq(mine[1].n, 0);
	ck_assert(moved == 0 || moved == HG_ENOMEM);
	size_t lost = hg_diags_lost(&mine[0]);
	ck_assert_uint_eq(mine[0].n + mine[0].nlost, 3);
	ck_assert(!notes_lost || lost > 0);
	return direct_status(lost > 0, d);
}

static void show_diags_direct(const void *arg, void *made, int rc, hg_diags *d, hg_buf *out)
{
	(void)arg;
	(void)d;
	hg_diags *mine = made;
	if (rc == 0)
		for (size_t i = 0; i < mine[0].n; i++)
			hg_diag_format(&mine[0].v[i], out, 0);
	hg_diags_free(&mine[0]);
	hg_diags_free(&mine[1]);
	free(mine);
}

/* A buffer outside a unit: short of memory it keeps a prefix of what was
 * written and is marked failed (stdio's ferror: one check at the end);
 * hg_buf_steal of an empty buffer. */
static const char buffer_text[] =
	"a buffer outside a unit of work, written in pieces: 12345678901234567890 "
	"and more text, so that it grows more than once and is cut";

static int run_buffer_direct(const void *arg, void **made, hg_diags *d)
{
	(void)arg;
	hg_buf *b = calloc(1, sizeof *b);
	ck_assert_ptr_nonnull(b);
	*made = b;
	hg_buf_init(b);
	hg_test_count_outside = 1;
	hg_buf empty;
	hg_buf_init(&empty);
	char *none = hg_buf_steal(&empty);	/* its one byte */
	int lost = none == NULL;
	ck_assert(!none || *none == '\0');
	free(none);
	for (size_t at = 0; at < sizeof buffer_text - 1; at += 16)
		hg_buf_printf(b, "%.16s", buffer_text + at);
	hg_buf_putc(b, '!');
	hg_test_count_outside = 0;
	if (hg_buf_failed(b)) {
		/* a prefix of the text, and nothing after */
		ck_assert(b->len == 0 || strncmp(b->data, buffer_text, b->len) == 0);
		lost = 1;
	}
	return direct_status(lost, d);
}

/* A buffer, or a record, in text. */
static void show_buf_direct(const void *arg, void *made, int rc, hg_diags *d, hg_buf *out)
{
	(void)arg;
	(void)d;
	hg_buf *b = made;
	if (b && rc == 0)
		hg_buf_puts(out, b->data ? b->data : "");
	if (b)
		hg_buf_free(b);
	free(b);
}

/* An engine's callbacks as a program calls them (herald next):
 * hg_state_setup, hg_legal_actions, hg_render_position and
 * hg_action_parse on a record's set-up, its data prepared beforehand. */
typedef struct engine_direct_arg {
	hg_session *s;
	const char *record;
} engine_direct_arg;

static int run_engine_direct(const void *arg, void **made, hg_diags *d)
{
	const engine_direct_arg *e = arg;
	unsigned long left = pause_count();
	hg_game_record *rec = record_at(e->record);
	const hg_game_class *cls;
	const hg_gdata *data;
	ck_assert_int_eq(hg_session_prepare(e->s, rec, &cls, &data, d), 0);
	hg_buf *out = calloc(1, sizeof *out);
	ck_assert_ptr_nonnull(out);
	hg_buf_init(out);
	*made = out;
	resume_count(left);
	int rc = 0;
	hg_state *st = hg_state_setup(cls, data, rec, d);
	if (!st) {
		rc = d->n && strcmp(d->v[d->n - 1].code, "hg.out-of-memory") == 0 ? HG_ENOMEM : -1;
		goto done;
	}
	hg_action_list legal = { 0 };
	if ((rc = hg_legal_actions(cls, st, &legal)) != 0) {
		ck_assert_uint_eq(legal.n, 0);
		free(legal.v);
		goto done;
	}
	left = pause_count();
	hg_buf seat, body;
	hg_buf_init(&seat);
	hg_buf_init(&body);
	for (size_t i = 0; i < legal.n; i++) {
		hg_buf_clear(&seat);
		hg_buf_clear(&body);
		cls->format(st, legal.v[i], &seat, &body);
		hg_buf_printf(out, "%s: %s\n", seat.data, body.data);
		cls->free_action(legal.v[i]);
	}
	free(legal.v);
	resume_count(left);
	rc = hg_render_position(cls, st, out);
	if (rc == 0 && rec->moves.n) {
		/* the record's first action, parsed */
		const hg_node *n = &rec->moves.nodes[0];
		for (size_t i = 1; n->kind != HG_NODE_ACTION && i < rec->moves.n; i++)
			n = &rec->moves.nodes[i];
		hg_action *a = hg_action_parse(cls, st, &n->action, d);
		if (!a)
			rc = d->n && strcmp(d->v[d->n - 1].code, "hg.out-of-memory") == 0 ? HG_ENOMEM : -1;
		else
			cls->free_action(a);
	}
	hg_buf_free(&seat);
	hg_buf_free(&body);
done:
	left = pause_count();
	if (st)
		cls->free_state(st);
	hg_record_free(rec);
	resume_count(left);
	if (rc == HG_ENOMEM && !(d->n && strcmp(d->v[d->n - 1].code, "hg.out-of-memory") == 0))
		rc = direct_status(1, d);	/* (legal and render take no list) */
	return rc;
}

START_TEST(public_calls_report_every_failure)
{
	hg_session *s = hg_session_new(HERALD_SRCDATADIR);
	const engine_direct_arg koc = { s, "kingdoms-of-crusaders/valid/resignation.hgn" },
				ck = { s, "crusader-kingdoms/valid/agreement.hgn" },
				enc = { s, "encrucijada/valid/activation-mutual.hgn" };
	const sweep_case cases[] = {
		{ "hg_record_new, hg_record_set_tag, hg_line_new, hg_line_push",
		  run_record_direct, show_record, NULL, 0, 8, NULL },
		{ "hg_action_text_set, hg_action_list_push", run_action_direct, show_buf_direct,
		  NULL, 0, 2, "P1: place c12 1 (3 tokens, 1 listed)" },
		{ "hg_diag_add, hg_diag_note, hg_diags_move", run_diags_direct, show_diags_direct,
		  NULL, 0, 10, NULL },
		{ "hg_buf_printf, hg_buf_putc, hg_buf_steal", run_buffer_direct, show_buf_direct,
		  NULL, 0, 3, NULL },
		{ "kingdoms-of-crusaders: setup, legal, render, parse", run_engine_direct,
		  show_buf_direct, &koc, 0, 3, NULL },
		{ "crusader-kingdoms: setup, legal, render, parse", run_engine_direct,
		  show_buf_direct, &ck, 0, 3, NULL },
		{ "encrucijada: setup, legal, render, parse", run_engine_direct,
		  show_buf_direct, &enc, 0, 3, NULL },
	};
	sweep(cases, sizeof cases / sizeof *cases);
	hg_session_free(s);
}
END_TEST

/* ------------------------------------------------------------------------
 * The tests
 * ------------------------------------------------------------------------ */

static void setup(void)
{
	json_set_alloc_funcs(json_malloc_counted, free);
	hg_diags d;
	hg_diags_init(&d);
	ck_assert_int_eq(parse_games(&parsed, &d, 0), 0);
	ck_assert_uint_eq(parsed.n, 3);
	ck_assert_uint_gt(d.nerrors, 0);	/* the second game's */
	expected_hgn = hgn_of(&parsed);
	hg_diags_free(&d);
}

static void teardown(void)
{
	unit_games_free(&parsed);
	free(expected_hgn);
}

#define SWEEP(cases) sweep((cases), sizeof(cases) / sizeof *(cases))

START_TEST(parser_reports_every_failure)
{
	const sweep_case cases[] = {
		{ "hg_parser_next", run_parse, show_parsed, NULL, 0, 21, NULL },
		/* a stream is read in windows, by the lexer's clear path where
		 * a window ends */
		{ "hg_parser_next (a stream)", run_parse, show_parsed, "stream", 0, 21, NULL },
	};
	SWEEP(cases);
}
END_TEST

START_TEST(writers_report_every_failure)
{
	static const writer hgn = { write_hgn }, json = { write_json },
			    json_game = { write_json_game }, yaml = { write_yaml };
	const sweep_case cases[] = {
		{ "hg_write_hgn", run_write, show_written, &hgn, 0, 1, NULL },
		{ "hg_write_json", run_write, show_written, &json, 0, 1, NULL },
		{ "hg_write_json_game", run_write, show_written, &json_game, 0, 1, NULL },
		{ "hg_write_yaml", run_write, show_written, &yaml, 0, 1, NULL },
	};
	SWEEP(cases);
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
	const reader from_json = { json.data, read_json }, json_stream = { json.data, read_json_stream },
		     from_yaml = { yaml.data, read_yaml }, yaml_stream = { yaml.data, read_yaml_stream };
	const sweep_case cases[] = {
		{ "hg_read_json", run_read, show_read, &from_json, 0, 11, expected_hgn },
		{ "hg_json_reader_next", run_read, show_read, &json_stream, 0, 11, expected_hgn },
		{ "hg_read_yaml", run_read, show_read, &from_yaml, 0, 11, expected_hgn },
		{ "hg_yaml_reader_next", run_read, show_read, &yaml_stream, 0, 11, expected_hgn },
	};
	SWEEP(cases);
	hg_buf_free(&json);
	hg_buf_free(&yaml);
}
END_TEST

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
	enum { N = sizeof records / sizeof *records };
	hg_session *s = hg_session_new(HERALD_SRCDATADIR);
	check_arg args[N + 1];
	sweep_case cases[N + 1];
	for (size_t i = 0; i < N; i++) {
		args[i] = (check_arg){ s, record_at(records[i].record) };
		cases[i] = (sweep_case){ records[i].record, run_check, show_checked, &args[i],
					 records[i].legal ? 0 : -1, records[i].allocations, NULL };
	}
	/* a variation (a clone), and an illegal action in it */
	args[N] = (check_arg){ s, parsed.v[0] };
	cases[N] = (sweep_case){ "GAMES' first", run_check, show_checked, &args[N], -1, 5, NULL };
	/* (the data loaded before the sweeps: the undisturbed runs load it) */
	SWEEP(cases);
	for (size_t i = 0; i < N; i++)
		hg_record_free(args[i].rec);
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
	enum { N = sizeof records / sizeof *records };
	check_arg args[N];
	sweep_case cases[N];
	for (size_t i = 0; i < N; i++) {
		args[i] = (check_arg){ NULL, record_at(records[i]) };
		cases[i] = (sweep_case){ records[i], run_check, show_checked, &args[i], 0, 101,
					 NULL };
	}
	SWEEP(cases);
	for (size_t i = 0; i < N; i++)
		hg_record_free(args[i].rec);
}
END_TEST

START_TEST(data_loading_reports_every_failure)
{
	/* data files the records name (each game's bundled data is loaded in
	 * check_with_loading_reports_every_failure) */
	static const char *const records[] = {
		"kingdoms-of-crusaders/valid/own-deck.hgn",
		"encrucijada/valid/own-cards.hgn",
		"crusader-kingdoms/valid/muslims-turn-castles.hgn",
	};
	enum { N = sizeof records / sizeof *records };
	hg_game_record *recs[N];
	sweep_case cases[N];
	for (size_t i = 0; i < N; i++) {
		recs[i] = record_at(records[i]);
		cases[i] = (sweep_case){ records[i], run_load, show_loaded, recs[i], 0, 101, NULL };
	}
	SWEEP(cases);
	for (size_t i = 0; i < N; i++)
		hg_record_free(recs[i]);
}
END_TEST

START_TEST(canonicalize_reports_every_failure)
{
	static const char *const records[] = {
		"kingdoms-of-crusaders/valid/location-names.hgn",
		"crusader-kingdoms/valid/agreement.hgn",
		"encrucijada/valid/activation-mutual.hgn",
	};
	enum { N = sizeof records / sizeof *records };
	hg_session *s = hg_session_new(HERALD_SRCDATADIR);
	canon_arg args[N];
	sweep_case cases[N];
	for (size_t i = 0; i < N; i++) {
		args[i].s = s;
		snprintf(args[i].path, sizeof args[i].path, "%s/../records/%s", HERALD_SRCDATADIR,
			 records[i]);
		cases[i] = (sweep_case){ records[i], run_canonicalize, show_record, &args[i], 0, 1,
					 NULL };
	}
	SWEEP(cases);
	hg_session_free(s);
}
END_TEST

START_TEST(generate_reports_every_failure)
{
	hg_session *s = hg_session_new(HERALD_SRCDATADIR);
	const gen_arg koc = { s, hg_game_find("kingdoms-of-crusaders") },
		      ck = { s, hg_game_find("crusader-kingdoms") },
		      enc = { s, hg_game_find("encrucijada") };
	const sweep_case cases[] = {
		{ "kingdoms-of-crusaders", run_generate, show_record, &koc, 0, 11, NULL },
		{ "crusader-kingdoms", run_generate, show_record, &ck, 0, 1000, NULL },
		{ "encrucijada", run_generate, show_record, &enc, 0, 11, NULL },
	};
	SWEEP(cases);
	hg_session_free(s);
}
END_TEST

/* Outside a unit of work, a buffer that cannot grow is marked failed and
 * keeps what it holds (it aborted before), and no unit is told: the next
 * one begins without the failure. */
START_TEST(buffer_outside_a_unit)
{
	hg_buf b;
	hg_buf_init(&b);
	hg_buf_puts(&b, "kept");
	hg_test_count_outside = 1;
	hg_test_fail_after = 1;
	hg_buf_printf(&b, "%s", " and a text too long for the room the buffer has");
	hg_test_count_outside = 0;
	ck_assert(refused());
	ck_assert(hg_buf_failed(&b));
	ck_assert_str_eq(b.data, "kept");
	hg_buf_puts(&b, "more");	/* nothing more until cleared */
	ck_assert_str_eq(b.data, "kept");
	hg_alloc_unit u;
	hg_alloc_unit_begin(&u);
	ck_assert(!hg_alloc_unit_failed());
	ck_assert_int_eq(hg_alloc_unit_end(&u, NULL, 0, (hg_pos){ NULL, 0, 0 }), 0);
	hg_buf_clear(&b);
	ck_assert(!hg_buf_failed(&b));
	hg_buf_puts(&b, "again");
	ck_assert_str_eq(b.data, "again");
	hg_buf_free(&b);
}
END_TEST

/* ------------------------------------------------------------------------
 * hg_session_new, the game master (hg_master_*) and the views: each
 * reports allocation failure (NULL for a constructor, else HG_ENOMEM with
 * hg.out-of-memory), and a change of the game that runs out of memory
 * leaves its files byte for byte as they were.
 * ------------------------------------------------------------------------ */

static int work_session_new(void *ctx, hg_diags *d, unsigned long fail_at)
{
	(void)ctx;
	(void)fail_at;
	hg_session *s = hg_session_new(HERALD_SRCDATADIR);
	if (!s)
		return opener_refused(d);
	unsigned long left = pause_count();
	ck_assert_uint_gt(hg_session_datapath(s)->n, 0);
	hg_session_free(s);
	resume_count(left);
	return 0;
}

START_TEST(session_new_reports_every_failure)
{
	/* the session, the data directory's name, the installed one's */
	ck_assert_uint_ge(every_n("hg_session_new", work_session_new, NULL), 3);
}
END_TEST

/* resignation.hgn's game as its master had it: the secret that record
 * reveals, and the record before P2's first draw, or before the opening
 * deal (the seats' words not given). */
#define MASTER_SECRET "adde5fd479e205679e7e165d53c1a2ada874d87730944fc90b5295d021c63887"
#define MASTER_TAGS							\
	"[Game \"kingdoms-of-crusaders\"]\n"				\
	"[Date \"????.??.??\"]\n"					\
	"[Players \"Ana; Ben\"]\n"					\
	"[Result \"*\"]\n"						\
	"[Variant \"markers\"]\n"					\
	"[SeedCommit \"2c751e5350dcae52dd0d829884418491c24aa9014b46966ac76bd66c231d5a2d\"]\n"
static const char MASTER_DEALT[] =
	MASTER_TAGS
	"[Entropy1 \"fig\"]\n"
	"[Entropy2 \"yew\"]\n"
	"\n"
	"1. P2: deal c45 c34 c39 c03 c07 P1: deal c16 c35 c38 c11 c25\n"
	"*\n";
static const char MASTER_AWAITING[] = MASTER_TAGS "\n*\n";

/* A file's bytes (NULL: there is none). */
static hg_buf *file_bytes(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	hg_buf *b = malloc(sizeof *b);
	ck_assert_ptr_nonnull(b);
	hg_buf_init(b);
	char chunk[4096];
	size_t n;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		hg_buf_putn(b, chunk, n);
	fclose(f);
	return b;
}

static void file_bytes_free(hg_buf *b)
{
	if (b)
		hg_buf_free(b);
	free(b);
}

static int same_bytes(const hg_buf *b, const char *text)
{
	return b && b->len == strlen(text) && memcmp(b->data, text, b->len) == 0;
}

/* One change of an open game. */
typedef int (*master_change)(hg_master *m, hg_buf *told, hg_diags *d);

typedef struct master_case {
	hg_session *s;
	const char *record;	/* the master record before the change */
	master_change change;
	char path[512], key[512], pending[512];
	char *expected;		/* the record after it, undisturbed */
	char *expected_told;
} master_case;

/* The game set up afresh (the record, its key, no pending secret) and
 * opened. */
static hg_master *master_at(master_case *c)
{
	ck_assert_int_eq(hg_write_file_atomic(c->path, c->record, strlen(c->record)), 0);
	ck_assert_int_eq(hg_write_file_atomic(c->key, MASTER_SECRET "\n",
					      strlen(MASTER_SECRET "\n")), 0);
	unlink(c->pending);
	hg_diags d;
	hg_diags_init(&d);
	hg_master *m = hg_master_open(c->s, c->path, NULL, 0, &d);
	ck_assert_msg(m != NULL, "the master record does not open: %s",
		      d.n ? d.v[0].message : "");
	hg_diags_free(&d);
	return m;
}

static int work_master(void *ctx, hg_diags *d, unsigned long fail_at)
{
	master_case *c = ctx;
	unsigned long left = pause_count();
	hg_master *m = master_at(c);
	hg_buf told;
	hg_buf_init(&told);
	resume_count(left);
	int rc = c->change(m, &told, d);
	left = pause_count();
	hg_master_close(m);
	hg_buf *record = file_bytes(c->path), *key = file_bytes(c->key),
	       *pending = file_bytes(c->pending);
	ck_assert(same_bytes(key, MASTER_SECRET "\n"));
	if (rc == HG_ENOMEM) {
		ck_assert_msg(same_bytes(record, c->record),
			      "allocation %lu refused, and the record changed", fail_at);
		ck_assert_ptr_null(pending);
		ck_assert_uint_eq(told.len, 0);
	} else if (fail_at) {
		ck_assert_int_eq(rc, 0);
		ck_assert(same_bytes(record, c->expected));
		ck_assert_str_eq(told.data ? told.data : "", c->expected_told);
	}
	file_bytes_free(record);
	file_bytes_free(key);
	file_bytes_free(pending);
	hg_buf_free(&told);
	resume_count(left);
	return rc;
}

static int draw(hg_master *m, hg_buf *told, hg_diags *d)
{
	return hg_master_move(m, "P2", "draw", 2, told, d);
}

static int resign_by_name(hg_master *m, hg_buf *told, hg_diags *d)
{
	return hg_master_move(m, "Ana", "P1: resign", -1, told, d);
}

static int deal_now(hg_master *m, hg_buf *told, hg_diags *d)
{
	return hg_master_entropy(m, NULL, NULL, told, d);
}

static int word_of_ben(hg_master *m, hg_buf *told, hg_diags *d)
{
	return hg_master_entropy(m, "Ben", "yew", told, d);
}

static int reveal(hg_master *m, hg_buf *told, hg_diags *d)
{
	(void)told;
	return hg_master_reveal(m, d);
}

static int agree(hg_master *m, hg_buf *told, hg_diags *d)
{
	(void)told;
	return hg_master_end(m, HG_END_AGREEMENT, "P1, P2", NULL, NULL, d);
}

START_TEST(master_changes_report_every_failure)
{
	static const struct {
		const char *name;
		const char *record;
		master_change change;
		unsigned long allocations;	/* at least */
	} changes[] = {
		{ "hg_master_move (the seed's card drawn)", MASTER_DEALT, draw, 50 },
		{ "hg_master_move (a resignation, by the player's name)", MASTER_DEALT,
		  resign_by_name, 10 },
		{ "hg_master_entropy (the deal)", MASTER_AWAITING, deal_now, 50 },
		{ "hg_master_entropy (a seat's word)", MASTER_AWAITING, word_of_ben, 5 },
		{ "hg_master_reveal", MASTER_DEALT, reveal, 5 },
		{ "hg_master_end", MASTER_DEALT, agree, 10 },
	};
	char dir[] = "/tmp/herald-alloc-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	hg_session *s = hg_session_new(HERALD_SRCDATADIR);
	for (size_t i = 0; i < sizeof changes / sizeof *changes; i++) {
		master_case c = { s, changes[i].record, changes[i].change, "", "", "", NULL, NULL };
		snprintf(c.path, sizeof c.path, "%s/g.hgn", dir);
		snprintf(c.key, sizeof c.key, "%s/g.hgn.key", dir);
		snprintf(c.pending, sizeof c.pending, "%s/g.hgn.key.pending", dir);
		/* undisturbed (the session's data loaded) */
		hg_master *m = master_at(&c);
		hg_buf told;
		hg_buf_init(&told);
		hg_diags d;
		hg_diags_init(&d);
		ck_assert_msg(changes[i].change(m, &told, &d) == 0 && d.n == 0, "%s: %s",
			      changes[i].name, d.n ? d.v[0].message : "(no diagnostic)");
		hg_master_close(m);
		hg_buf *after = file_bytes(c.path);
		ck_assert_ptr_nonnull(after);
		ck_assert(!same_bytes(after, c.record));
		c.expected = hg_buf_steal(after);
		file_bytes_free(after);
		c.expected_told = hg_buf_steal(&told);
		ck_assert_uint_ge(every_n(changes[i].name, work_master, &c),
				  changes[i].allocations);
		free(c.expected);
		free(c.expected_told);
		hg_diags_free(&d);
		unlink(c.path);
		unlink(c.key);
		unlink(c.pending);
	}
	hg_session_free(s);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

typedef struct open_case {
	hg_session *s;
	const char *path;
} open_case;

static int work_master_open(void *ctx, hg_diags *d, unsigned long fail_at)
{
	open_case *c = ctx;
	hg_master *m = hg_master_open(c->s, c->path, NULL, 0, d);
	unsigned long left = pause_count();
	int rc = m ? 0 : d->n && strcmp(d->v[d->n - 1].code, "hg.out-of-memory") == 0
				? HG_ENOMEM : -1;
	if (m && fail_at)
		ck_assert_uint_eq(hg_master_actions(m), 2);	/* the two deals */
	hg_master_close(m);	/* (the lock released: the next run takes it) */
	resume_count(left);
	return rc;
}

/* A new game's record (the secret is new each run: its commitment is
 * checked, not its deal). */
static int work_master_new(void *ctx, hg_diags *d, unsigned long fail_at)
{
	(void)fail_at;
	static char *players[] = { "Ana", "Ben" }, *entropy[] = { "fig", NULL };
	hg_master_new_opts o = { "new.hgn", "koc", NULL, NULL, players, 2, entropy, 0 };
	char secret[HG_FAIR_HEX_LEN + 1], commit[HG_FAIR_HEX_LEN + 1];
	hg_game_record *rec = hg_master_new(ctx, &o, secret, d);
	unsigned long left = pause_count();
	int rc = rec ? 0 : d->n && strcmp(d->v[d->n - 1].code, "hg.out-of-memory") == 0
				  ? HG_ENOMEM : -1;
	if (rec) {
		ck_assert_int_eq(hg_fair_commit(secret, commit), 0);
		ck_assert_str_eq(hg_record_tag_value(rec, "SeedCommit"), commit);
		ck_assert_str_eq(hg_record_tag_value(rec, "Entropy1"), "fig");
		ck_assert_uint_gt(rec->moves.n, 0);	/* the opening deal */
	}
	hg_record_free(rec);
	resume_count(left);
	return rc;
}

START_TEST(master_new_and_open_report_every_failure)
{
	hg_session *s = hg_session_new(HERALD_SRCDATADIR);
	ck_assert_uint_ge(every_n("hg_master_new", work_master_new, s), 100);
	char dir[] = "/tmp/herald-alloc-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	/* The record after the deal: its move number is read through a
	 * stream (hg_parser_open_file), whose buffer may fail to grow. */
	master_case c = { s, MASTER_DEALT, NULL, "", "", "", NULL, NULL };
	snprintf(c.path, sizeof c.path, "%s/g.hgn", dir);
	snprintf(c.key, sizeof c.key, "%s/g.hgn.key", dir);
	snprintf(c.pending, sizeof c.pending, "%s/g.hgn.key.pending", dir);
	hg_master_close(master_at(&c));
	open_case o = { s, c.path };
	ck_assert_uint_ge(every_n("hg_master_open", work_master_open, &o), 20);
	unlink(c.path);
	unlink(c.key);
	hg_session_free(s);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/* hg_view_record and hg_view_seat: the view an undisturbed run makes, or
 * NULL (HG_ENOMEM) with hg.out-of-memory. */
typedef struct view_case {
	hg_session *s;
	hg_game_record *rec;
	const char *expected;	/* the view in HGN */
} view_case;

static int work_view(void *ctx, hg_diags *d, unsigned long fail_at)
{
	view_case *c = ctx;
	unsigned seat = 7;
	int rc = hg_view_seat(c->s, c->rec, "P2", &seat, d);
	hg_game_record *view = rc == 0 ? hg_view_record(c->s, c->rec, seat, d) : NULL;
	unsigned long left = pause_count();
	if (rc == 0 && !view)
		rc = d->n && strcmp(d->v[d->n - 1].code, "hg.out-of-memory") == 0 ? HG_ENOMEM : -1;
	if (view && fail_at) {
		ck_assert_uint_eq(seat, 1);
		hg_buf out;
		hg_buf_init(&out);
		ck_assert_int_eq(hg_write_hgn(view, &out), 0);
		ck_assert_str_eq(out.data, c->expected);
		hg_buf_free(&out);
	}
	hg_record_free(view);
	resume_count(left);
	return rc;
}

START_TEST(views_report_every_failure)
{
	static const char *const records[] = {
		"kingdoms-of-crusaders/valid/resignation.hgn",
		"encrucijada/valid/activation-mutual.hgn",
	};
	hg_session *s = hg_session_new(HERALD_SRCDATADIR);
	for (size_t i = 0; i < sizeof records / sizeof *records; i++) {
		hg_game_record *rec = record_at(records[i]);
		hg_diags d;
		hg_diags_init(&d);
		unsigned seat;
		ck_assert_int_eq(hg_view_seat(s, rec, "P2", &seat, &d), 0);
		hg_game_record *view = hg_view_record(s, rec, seat, &d);
		ck_assert_ptr_nonnull(view);
		hg_buf want;
		hg_buf_init(&want);
		ck_assert_int_eq(hg_write_hgn(view, &want), 0);
		view_case c = { s, rec, want.data };
		ck_assert_uint_ge(every_n(records[i], work_view, &c), 50);
		hg_buf_free(&want);
		hg_record_free(view);
		hg_diags_free(&d);
		hg_record_free(rec);
	}
	hg_session_free(s);
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
 * succeeds, but for the public function legal calls); with every bit set it runs in the unit and its call ends in
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
			/* (legal's hg_action_list_push is a public function,
			 * which reports in paused code too: refused there) */
			int refuses = reports || callback == 4;
			ck_assert_msg(fake_ran_reporting == reports,
				      "callback %d: ran %s", callback,
				      fake_ran_reporting ? "in the unit" : "paused");
			ck_assert_msg(failed == refuses, "callback %d: %s", callback,
				      failed ? "failed" : "succeeded");
			ck_assert_int_eq(hg_alloc_unit_end(&u, &d, 0, (hg_pos){ NULL, 0, 0 }),
					 refuses ? HG_ENOMEM : 0);
			ck_assert_uint_eq(hg_test_fail_after, refuses ? 0 : 1);
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
	/* Runs whose refusal comes past this many allocations (the
	 * undisturbed run's) are complete, and spell their legal lists in
	 * the trace; the others count them (formatting every list of every
	 * run would double the sweep). */
	unsigned long allocations;
	int spell;
} engine_case;

/* Appends to the trace outside the count: the test's own allocation. */
static void trace_add(hg_buf *trace, const char *what, size_t n, const hg_buf *render)
{
	unsigned depth = hg_alloc_pause();
	hg_buf_printf(trace, "%s %zu\n%s", what, n, render->data ? render->data : "");
	hg_alloc_resume(depth);
}

/* The legal actions as the engine spells them, one a line (paused: the
 * test's, not the engine's), so that a complete run is seen to give the
 * very list an undisturbed one gives. */
static void trace_legal(hg_buf *trace, const hg_game_class *cls, const hg_state *st,
			const hg_action_list *legal)
{
	unsigned depth = hg_alloc_pause();
	hg_buf seat, body;
	hg_buf_init(&seat);
	hg_buf_init(&body);
	for (size_t k = 0; k < legal->n; k++) {
		hg_buf_clear(&seat);
		hg_buf_clear(&body);
		cls->format(st, legal->v[k], &seat, &body);
		hg_buf_printf(trace, "  %s: %s\n", seat.data ? seat.data : "",
			      body.data ? body.data : "");
	}
	hg_buf_free(&seat);
	hg_buf_free(&body);
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
		if (rc == 0 && c->spell)
			trace_legal(trace, cls, st, &legal);
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
	c->spell = fail_at > c->allocations;
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
	engine_case c = { NULL, NULL, rec, NULL, 0, 1 };
	ck_assert_int_eq(hg_session_prepare(s, rec, &c.cls, &c.data, &d), 0);
	hg_buf want;
	hg_buf_init(&want);
	/* (in a unit that refuses nothing, to count its allocations) */
	hg_alloc_unit u;
	hg_alloc_unit_begin(&u);
	hg_test_fail_after = ULONG_MAX;
	replay_callbacks(&c, &d, &want);
	c.allocations = ULONG_MAX - pause_count();
	ck_assert_int_eq(hg_alloc_unit_end(&u, &d, 0, rec->pos), 0);
	ck_assert_uint_eq(d.n, 0);
	ck_assert_uint_gt(want.len, 0);
	c.expected = want.data;
	unsigned long n = every_n(record, work_callbacks, &c);
	ck_assert_uint_eq(n, c.allocations);
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
		 * longest actions; legal: events and attacks with responses;
		 * render */
		{ "crusader-kingdoms/valid/events-and-responses.hgn", 5000 },
		/* legal: a Seed's dice, Lider's points, random cards taken
		 * by incursions and events, attacks in the middle of rounds */
		{ "crusader-kingdoms/valid/seeded-shared-victory.hgn", 1000 },
		/* legal: the script's reveals and its army's attacks;
		 * render: the script's next round (a copy of the state) */
		{ "crusader-kingdoms/valid/worked-script-example.hgn", 1000 },
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

/* Compiling a pattern inside a unit: each refusal (PCRE2's own
 * allocations through its general context, the pattern's, its group
 * names') gives NULL and the unit's HG_ENOMEM; the complete run a pattern
 * that matches, its named group found. */
static int work_pattern_compile(void *ctx, hg_diags *d, unsigned long fail_at)
{
	(void)ctx;
	(void)fail_at;
	hg_alloc_unit u;
	size_t n0 = d->n;
	hg_alloc_unit_begin(&u);
	hg_pattern *p = hg_pattern_try_new("[^ ]+ (?<sector>[0-9]+)(?: (?<marker>#[0-9]+))?");
	int rc = hg_alloc_unit_end(&u, d, n0, (hg_pos){ NULL, 0, 0 });
	unsigned long left = pause_count();
	if (rc == 0) {
		ck_assert_ptr_nonnull(p);
		hg_match m;
		ck_assert_int_eq(hg_pattern_match(p, "place 3 #2", &m), 1);
		ck_assert_int_eq(hg_pattern_group(p, "marker"), 2);
		ck_assert(hg_match_set(&m, hg_pattern_group(p, "sector")));
	} else {
		ck_assert_ptr_null(p);
	}
	hg_pattern_free(p);
	resume_count(left);
	return rc;
}

START_TEST(pattern_compile_reports_every_failure)
{
	/* the general and compile contexts, the code, the pattern, its
	 * slot, its names' table and two names */
	ck_assert_uint_ge(every_n("hg_pattern_try_new", work_pattern_compile, NULL), 7);
}
END_TEST

/* ------------------------------------------------------------------------
 * The engines' callbacks that write or hold an action pending (format,
 * gen_tags, chance_split, chance_fill, resign_result, the pending_*
 * callbacks, view_action; engine-call.h) and the core's calls of them
 * ------------------------------------------------------------------------ */

static void fake_format(const hg_state *s, const hg_action *a, hg_buf *seat, hg_buf *body)
{
	(void)s, (void)a;
	fake_allocate();
	hg_buf_puts(seat, "P1");
	hg_buf_puts(body, "move");
}

static int fake_gen_tags(const hg_gdata *data, hg_prng *r, unsigned players,
			 const char *variant, hg_game_record *rec, hg_diags *d)
{
	(void)data, (void)r, (void)players, (void)variant, (void)rec, (void)d;
	fake_allocate();
	return 0;
}

static size_t fake_chance_split(const hg_state *s, const char *seat, const char *body)
{
	(void)s, (void)seat;
	fake_allocate();
	return strlen(body);
}

static void fake_chance_fill(const hg_state *s, const char *seat, const char *body, hg_buf *out)
{
	(void)s, (void)seat;
	fake_allocate();
	hg_buf_puts(out, body);
}

static void fake_resign_result(const hg_state *s, unsigned seat, hg_buf *out)
{
	(void)s, (void)seat;
	fake_allocate();
	hg_buf_puts(out, "P2");
}

static int fake_pending_open(const hg_state *s, const char *seat, const char *body,
			     hg_pending *p, hg_diags *d)
{
	(void)s, (void)body, (void)d;
	p->seat = hg_xstrdup(seat);
	fake_allocate();
	return 1;
}

static int fake_pending_answer(const hg_state *s, hg_pending *p, const char *seat,
			       const char *text, hg_diags *d)
{
	(void)s, (void)p, (void)seat, (void)text, (void)d;
	fake_allocate();
	return 0;
}

static int fake_pending_finish(const hg_state *s, const hg_pending *p, hg_buf *body,
			       hg_diags *d)
{
	(void)s, (void)p, (void)d;
	fake_allocate();
	hg_buf_puts(body, "move");
	return 0;
}

static void fake_pending_steps(const hg_state *s, const hg_pending *p, const char *seat,
			       hg_buf *out)
{
	(void)s, (void)p, (void)seat;
	fake_allocate();
	hg_buf_puts(out, "pass\n");
}

static void fake_view_action(const hg_state *before, const hg_state *after, const hg_action *a,
			     unsigned seat, hg_buf *seat_out, hg_buf *body)
{
	(void)before, (void)after, (void)a, (void)seat;
	fake_allocate();
	hg_buf_puts(seat_out, "P1");
	hg_buf_puts(body, "move");
}

/* As engine_call_maps_a_lost_allocation, for the callbacks that write or
 * hold an action pending: paused (nothing refused, the call succeeds)
 * when the class does not report from them; else the call ends in
 * HG_ENOMEM, and pending_open's pending action is freed (LeakSanitizer). */
START_TEST(engine_writers_map_a_lost_allocation)
{
	hg_game_class fake = {
		.id = "fake",
		.format = fake_format,
		.gen_tags = fake_gen_tags,
		.chance_split = fake_chance_split,
		.chance_fill = fake_chance_fill,
		.resign_result = fake_resign_result,
		.pending_open = fake_pending_open,
		.pending_answer = fake_pending_answer,
		.pending_finish = fake_pending_finish,
		.pending_steps = fake_pending_steps,
		.view_action = fake_view_action,
	};
	enum { CALLBACKS = 10 };
	static const unsigned bits[CALLBACKS] = {
		HG_REPORTS_FORMAT, HG_REPORTS_GEN_TAGS, HG_REPORTS_CHANCE_SPLIT,
		HG_REPORTS_CHANCE_FILL, HG_REPORTS_RESIGN_RESULT, HG_REPORTS_PENDING_OPEN,
		HG_REPORTS_PENDING_ANSWER, HG_REPORTS_PENDING_FINISH, HG_REPORTS_PENDING_STEPS,
		HG_REPORTS_VIEW_ACTION,
	};
	hg_state *st = fake_setup(NULL, NULL, NULL);
	for (int reports = 0; reports <= 1; reports++) {
		for (int callback = 0; callback < CALLBACKS; callback++) {
			/* (only its own bit: another's is not it) */
			fake.reports_enomem = reports ? bits[callback] : HG_REPORTS_ALL & ~bits[callback];
			hg_diags d;
			hg_diags_init(&d);
			hg_buf a, b;
			hg_buf_init(&a);
			hg_buf_init(&b);
			hg_pending p;
			memset(&p, 0, sizeof p);
			hg_alloc_unit u;
			hg_alloc_unit_begin(&u);
			hg_test_fail_after = 1;
			int rc = 0;
			size_t split = 0;
			switch (callback) {
			case 0:
				rc = hg_engine_format(&fake, st, NULL, &a, &b);
				break;
			case 1:
				rc = hg_engine_gen_tags(&fake, NULL, NULL, 0, NULL, NULL, &d);
				break;
			case 2:
				rc = hg_engine_chance_split(&fake, st, "P1", "move", &split);
				if (rc == 0)
					ck_assert_uint_eq(split, 4);
				break;
			case 3:
				rc = hg_engine_chance_fill(&fake, st, "P1", "move", &a);
				break;
			case 4:
				rc = hg_resign_result(&fake, st, 0, &a);
				break;
			case 5:
				rc = hg_engine_pending_open(&fake, st, "P1", "move", &p, &d);
				if (rc == HG_ENOMEM)
					ck_assert_ptr_null(p.seat);
				else
					ck_assert_int_eq(rc, 1);
				break;
			case 6:
				rc = hg_engine_pending_answer(&fake, st, &p, "P2", "pass", &d);
				break;
			case 7:
				rc = hg_engine_pending_finish(&fake, st, &p, &a, &d);
				break;
			case 8:
				rc = hg_engine_pending_steps(&fake, st, &p, "P2", &a);
				break;
			case 9:
				rc = hg_engine_view_action(&fake, st, st, NULL, 0, &a, &b);
				break;
			}
			ck_assert_msg(fake_ran_reporting == reports, "callback %d: ran %s", callback,
				      fake_ran_reporting ? "in the unit" : "paused");
			ck_assert_msg(rc == (reports ? HG_ENOMEM : callback == 5 ? 1 : 0),
				      "callback %d: returned %d", callback, rc);
			ck_assert_int_eq(hg_alloc_unit_end(&u, &d, 0, (hg_pos){ NULL, 0, 0 }),
					 reports ? HG_ENOMEM : 0);
			ck_assert_uint_eq(hg_test_fail_after, reports ? 0 : 1);
			hg_test_fail_after = 0;
			hg_pending_free(&p);
			hg_buf_free(&a);
			hg_buf_free(&b);
			hg_diags_free(&d);
		}
	}
	fake_free(st);
}
END_TEST

/* One of the engines' writing callbacks over a record's main line, alone
 * in the unit: everything else the work needs (the set-up, each action
 * read and applied, a copy of the position before it) runs paused, so
 * that the allocations refused are the callback's own.  Run paused, the
 * callback would have none refused: each case's minimum is above 0.  A
 * complete run writes what an undisturbed one writes. */
enum engine_writer {
	WRITE_FORMAT,		/* each action, as format spells it */
	WRITE_VIEW_ACTION,	/* each action as each seat sees it */
	WRITE_RESIGN_RESULT,	/* the result each seat's resignation gives, at the end */
	WRITE_CHANCE_FILL,	/* each action, its chance filled from the seed */
	WRITE_GEN_TAGS,		/* the tags of a new game (no record) */
};

typedef struct writer_case {
	const char *record;	/* or the game's name (WRITE_GEN_TAGS) */
	enum engine_writer writer;
	const hg_game_class *cls;
	const hg_gdata *data;
	hg_game_record *rec;
} writer_case;

static int written_by(const writer_case *c, const hg_state *before, const hg_state *after,
		      const hg_action *a, hg_buf *out)
{
	const hg_game_class *cls = c->cls;
	hg_buf seat, body;
	hg_buf_init(&seat);
	hg_buf_init(&body);
	int rc = 0;
	switch (c->writer) {
	case WRITE_FORMAT:
		rc = hg_engine_format(cls, before, a, &seat, &body);
		break;
	case WRITE_VIEW_ACTION:
		for (unsigned k = 0; rc == 0 && cls->seat_name(after, k); k++) {
			hg_buf_clear(&seat);
			hg_buf_clear(&body);
			rc = hg_engine_view_action(cls, before, after, a, k, &seat, &body);
			UNCOUNTED(hg_buf_printf(out, "%u> %s: %s\n", k, seat.data ? seat.data : "",
						body.data ? body.data : ""));
		}
		hg_buf_clear(&seat);
		hg_buf_clear(&body);
		break;
	case WRITE_CHANCE_FILL: {
		hg_buf mine;
		hg_buf_init(&mine);
		UNCOUNTED(cls->format(before, a, &seat, &mine));
		rc = hg_engine_chance_fill(cls, before, seat.data ? seat.data : "",
					   mine.data ? mine.data : "", &body);
		UNCOUNTED(hg_buf_free(&mine));
		break;
	}
	default:
		break;
	}
	if (seat.len || body.len)
		UNCOUNTED(hg_buf_printf(out, "%s: %s\n", seat.data ? seat.data : "",
					body.data ? body.data : ""));
	UNCOUNTED(hg_buf_free(&seat); hg_buf_free(&body));
	return rc;
}

static void write_over_record(const writer_case *c, hg_buf *out)
{
	const hg_game_class *cls = c->cls;
	hg_diags quiet;
	hg_diags_init(&quiet);
	hg_state *st;
	UNCOUNTED(st = cls->setup(c->data, c->rec, &quiet));
	ck_assert_ptr_nonnull(st);
	const hg_line *line = &c->rec->moves;
	int rc = 0;
	for (size_t i = 0; i < line->n && rc == 0; i++) {
		const hg_node *n = &line->nodes[i];
		if (n->kind != HG_NODE_ACTION || hg_action_is_resign(&n->action))
			continue;
		hg_action *a;
		hg_state *before;
		int applied;
		UNCOUNTED(a = cls->parse(st, &n->action, &quiet); before = cls->clone(st);
			  applied = cls->apply(st, a, &quiet));
		ck_assert_int_eq(applied, 0);
		rc = written_by(c, before, st, a, out);
		UNCOUNTED(cls->free_action(a); cls->free_state(before));
	}
	if (rc == 0 && c->writer == WRITE_RESIGN_RESULT) {
		for (unsigned k = 0; rc == 0 && cls->seat_name(st, k); k++) {
			hg_buf result;
			hg_buf_init(&result);
			rc = hg_resign_result(cls, st, k, &result);
			UNCOUNTED(hg_buf_printf(out, "%u resigns: %s\n", k,
						result.data ? result.data : ""));
			UNCOUNTED(hg_buf_free(&result));
		}
	}
	UNCOUNTED(cls->free_state(st); hg_diags_free(&quiet));
}

static void write_gen_tags(const writer_case *c, hg_buf *out, hg_diags *d)
{
	hg_game_record *rec;
	UNCOUNTED(rec = hg_record_new("<generated>"));
	hg_prng r;
	hg_prng_seed(&r, "alloc");
	if (hg_engine_gen_tags(c->cls, c->data, &r, 0, NULL, rec, d) == 0)
		for (size_t i = 0; i < rec->ntags; i++)
			UNCOUNTED(hg_buf_printf(out, "%s %s\n", rec->tags[i].name, rec->tags[i].value));
	UNCOUNTED(hg_record_free(rec));
}

static int run_writer(const void *arg, void **made, hg_diags *d)
{
	const writer_case *c = arg;
	hg_buf *out;
	UNCOUNTED(out = hg_xmalloc(sizeof *out); hg_buf_init(out));
	*made = out;
	hg_alloc_unit u;
	size_t n0 = d->n;
	hg_alloc_unit_begin(&u);
	if (c->writer == WRITE_GEN_TAGS)
		write_gen_tags(c, out, d);
	else
		write_over_record(c, out);
	return hg_alloc_unit_end(&u, d, n0, (hg_pos){ NULL, 0, 0 });
}

static void show_writer(const void *arg, void *made, int rc, hg_diags *d, hg_buf *out)
{
	(void)arg;
	(void)d;
	hg_buf *written = made;
	if (rc == 0)
		hg_buf_puts(out, written->data ? written->data : "");
	hg_buf_free(written);
	free(written);
}

START_TEST(engine_writers_report_every_failure)
{
	static const struct {
		const char *record;
		enum engine_writer writer;
		unsigned long min;	/* allocations refused, at least */
	} writers[] = {
		{ "kingdoms-of-crusaders/valid/location-names.hgn", WRITE_FORMAT, 100 },
		{ "crusader-kingdoms/valid/events-and-responses.hgn", WRITE_FORMAT, 100 },
		{ "encrucijada/valid/resist-two-players.hgn", WRITE_FORMAT, 80 },
		{ "kingdoms-of-crusaders/valid/resignation.hgn", WRITE_VIEW_ACTION, 15 },
		{ "crusader-kingdoms/valid/hidden-cards.hgn", WRITE_VIEW_ACTION, 40 },
		{ "encrucijada/valid/shared-tower.hgn", WRITE_VIEW_ACTION, 50 },
		/* the other seats share the game; against the script, "defeat" */
		{ "crusader-kingdoms/valid/agreement.hgn", WRITE_RESIGN_RESULT, 6 },
		{ "crusader-kingdoms/valid/cooperative-defeat.hgn", WRITE_RESIGN_RESULT, 1 },
		/* (paused, a refusal in it aborts: the action's text is read
		 * in a unit of its own) */
		{ "encrucijada/valid/resist-two-players.hgn", WRITE_CHANCE_FILL, 300 },
		{ "kingdoms-of-crusaders", WRITE_GEN_TAGS, 6 },
		{ "crusader-kingdoms", WRITE_GEN_TAGS, 6 },
		{ "encrucijada", WRITE_GEN_TAGS, 7 },
	};
	enum { N = sizeof writers / sizeof *writers };
	hg_session *s = hg_session_new(HERALD_SRCDATADIR);
	writer_case args[N];
	sweep_case cases[N];
	for (size_t i = 0; i < N; i++) {
		writer_case *w = &args[i];
		memset(w, 0, sizeof *w);
		w->record = writers[i].record;
		w->writer = writers[i].writer;
		if (w->writer == WRITE_GEN_TAGS) {
			hg_game_record *proto = hg_record_new("<generated>");
			hg_record_set_tag(proto, "Game", w->record);
			w->rec = proto;
		} else {
			w->rec = record_at(w->record);
		}
		hg_diags d;
		hg_diags_init(&d);
		ck_assert_int_eq(hg_session_prepare(s, w->rec, &w->cls, &w->data, &d), 0);
		hg_diags_free(&d);
		cases[i] = (sweep_case){ w->record, run_writer, show_writer, w, 0, writers[i].min,
					 NULL };
	}
	SWEEP(cases);
	for (size_t i = 0; i < N; i++)
		hg_record_free(args[i].rec);
	hg_session_free(s);
}
END_TEST

/* hg_canonicalize with the engines' format in the unit: more refused than
 * with format paused (then 78, 3 and 36). */
START_TEST(canonicalize_formats_in_the_unit)
{
	static const struct {
		const char *record;
		unsigned long min;
	} records[] = {
		{ "kingdoms-of-crusaders/valid/location-names.hgn", 80 },
		{ "crusader-kingdoms/valid/agreement.hgn", 7 },
		{ "encrucijada/valid/activation-mutual.hgn", 39 },
	};
	enum { N = sizeof records / sizeof *records };
	hg_session *s = hg_session_new(HERALD_SRCDATADIR);
	canon_arg args[N];
	sweep_case cases[N];
	for (size_t i = 0; i < N; i++) {
		args[i].s = s;
		snprintf(args[i].path, sizeof args[i].path, "%s/../records/%s", HERALD_SRCDATADIR,
			 records[i].record);
		cases[i] = (sweep_case){ records[i].record, run_canonicalize, show_record, &args[i],
					 0, records[i].min, NULL };
	}
	SWEEP(cases);
	hg_session_free(s);
}
END_TEST

/* The game master's moves that reach those callbacks, in games of
 * Crusader Kingdoms and Encrucijada (their secrets and records as `herald
 * new` made them): an attack held pending while the other seats answer
 * (pending_open, the tags and the secret written), a seat's answer
 * (pending_answer, the secret read and written again), the last answer
 * (pending_finish, the action whole, the secret removed, the draws that
 * follow: format and chance_split), a resignation with the attack pending
 * (resign_result), and a set-up whose cards the seed names (chance_fill).
 * Short of memory each leaves the record, the key and the secret byte for
 * byte as they were; a complete run writes what an undisturbed one
 * writes. */
#define CK_SECRET "d02d370b282330fcf4803750a126ba6b75825c8d83b4c33cd410f2e19e7f5199"
#define CK_DEALT							\
	"[Game \"crusader-kingdoms\"]\n"				\
	"[Date \"????.??.??\"]\n"					\
	"[Players \"A; B; C; D\"]\n"					\
	"[Result \"*\"]\n"						\
	"[Scenario \"2nd-crusade\"]\n"					\
	"[SeedCommit \"aab4bd38b9ae6355451370a27e41700363d04b5cdc00f587cfebf1e81bed3512\"]\n" \
	"[Entropy1 \"pending\"]\n"
#define CK_PENDING(awaits, face_down)					\
	"[Pending \"damasco: attack latakia from homs\"]\n"		\
	"[PendingAwaits \"" awaits "\"]\n"				\
	"[PendingFaceDown \"" face_down "\"]\n"
#define CK_DRAWS							\
	"\n"								\
	"1.\n"								\
	"damasco: draw tropa-3 tropa-2 tropa-1 tropa-1 tropa-4 tropa-3 lider mercenarios\n" \
	"jerusalen: draw ataque-conjunto turcopolos tropa-3 asesinos peregrinos-armados tropa-2 turcopolos tropa-1\n" \
	"antioquia: draw tropa-1 tropa-2 trovadores tropa-2 tropa-3 peregrinos-armados tropa-1 tropa-2\n" \
	"alepo: draw tropa-2 incursion tropa-1 incursion tropa-2 tropa-2 tropa-1 atalayas\n" \
	"*\n"
#define CK_SECRET_HEAD							\
	"herald-pending 1\n"						\
	"commit aab4bd38b9ae6355451370a27e41700363d04b5cdc00f587cfebf1e81bed3512\n" \
	"actions 4\n"							\
	"part damasco 1 attack latakia from homs with tropa-4\n"
#define ENC_SECRET "da8f237de54a97e67af82c706ad4c17d0801b4892c6926508e3674fe75c53571"
#define ENC_NEW								\
	"[Game \"encrucijada\"]\n"					\
	"[Date \"????.??.??\"]\n"					\
	"[Players \"Ana; Bruno\"]\n"					\
	"[Result \"*\"]\n"						\
	"[Deck1 \"ocaso-ritual\"]\n"					\
	"[Deck2 \"ocaso-ritual\"]\n"					\
	"[SeedCommit \"b7578b2c70ef0ad266ca7446213d222100500557658ee1f1488f0c7b3e4ae307\"]\n" \
	"[Entropy1 \"fig\"]\n"						\
	"\n"								\
	"*\n"

typedef struct game_master_case {
	hg_session *s;
	const char *record, *key, *secret;	/* before the change (secret: NULL, none) */
	master_change change;
	char path[512], key_path[512], pending[512];
	char *expected, *expected_secret, *expected_told;	/* after it, undisturbed */
} game_master_case;

static hg_master *game_master_at(game_master_case *c)
{
	ck_assert_int_eq(hg_write_file_atomic(c->path, c->record, strlen(c->record)), 0);
	ck_assert_int_eq(hg_write_file_atomic(c->key_path, c->key, strlen(c->key)), 0);
	unlink(c->pending);
	if (c->secret)
		ck_assert_int_eq(hg_write_file_atomic(c->pending, c->secret, strlen(c->secret)), 0);
	hg_diags d;
	hg_diags_init(&d);
	hg_master *m = hg_master_open(c->s, c->path, NULL, 0, &d);
	ck_assert_msg(m != NULL, "the master record does not open: %s",
		      d.n ? d.v[0].message : "");
	hg_diags_free(&d);
	return m;
}

static int same_or_none(const hg_buf *b, const char *text)
{
	return text ? same_bytes(b, text) : b == NULL;
}

static int work_game_master(void *ctx, hg_diags *d, unsigned long fail_at)
{
	game_master_case *c = ctx;
	unsigned long left = pause_count();
	hg_master *m = game_master_at(c);
	hg_buf told;
	hg_buf_init(&told);
	resume_count(left);
	int rc = c->change(m, &told, d);
	left = pause_count();
	hg_master_close(m);
	hg_buf *record = file_bytes(c->path), *key = file_bytes(c->key_path),
	       *pending = file_bytes(c->pending);
	ck_assert(same_bytes(key, c->key));
	if (rc == HG_ENOMEM) {
		ck_assert_msg(same_bytes(record, c->record),
			      "allocation %lu refused, and the record changed", fail_at);
		ck_assert_msg(same_or_none(pending, c->secret),
			      "allocation %lu refused, and the pending secret changed", fail_at);
		ck_assert_uint_eq(told.len, 0);
	} else if (fail_at) {
		ck_assert_int_eq(rc, 0);
		ck_assert(same_bytes(record, c->expected));
		ck_assert(same_or_none(pending, c->expected_secret));
		ck_assert_str_eq(told.data ? told.data : "", c->expected_told);
	}
	file_bytes_free(record);
	file_bytes_free(key);
	file_bytes_free(pending);
	hg_buf_free(&told);
	resume_count(left);
	return rc;
}

static int ck_attack(hg_master *m, hg_buf *told, hg_diags *d)
{
	return hg_master_move(m, "damasco", "attack latakia from homs with tropa-4", -1, told, d);
}

static int ck_jerusalen_passes(hg_master *m, hg_buf *told, hg_diags *d)
{
	return hg_master_move(m, "jerusalen", "pass", -1, told, d);
}

static int ck_alepo_passes(hg_master *m, hg_buf *told, hg_diags *d)
{
	return hg_master_move(m, "alepo", "pass", -1, told, d);
}

static int ck_damasco_resigns(hg_master *m, hg_buf *told, hg_diags *d)
{
	return hg_master_move(m, "damasco", "resign", -1, told, d);
}

static int enc_setup(hg_master *m, hg_buf *told, hg_diags *d)
{
	return hg_master_move(m, "P1", "setup 2", -1, told, d);
}

START_TEST(master_pending_and_chance_report_every_failure)
{
	static const struct {
		const char *name;
		const char *record, *key, *secret;
		master_change change;
		unsigned long allocations;	/* at least; with pending_* paused, the
					   first three abort (the action's text
					   is read in a unit of its own) */
	} changes[] = {
		{ "an attack held pending", CK_DEALT CK_DRAWS, CK_SECRET "\n", NULL, ck_attack,
		  1000 },
		{ "an answer to it", CK_DEALT CK_PENDING("jerusalen, antioquia, alepo", "damasco 1")
		  CK_DRAWS, CK_SECRET "\n", CK_SECRET_HEAD, ck_jerusalen_passes, 100 },
		{ "the last answer", CK_DEALT CK_PENDING("alepo", "damasco 1, jerusalen 0, antioquia 0")
		  CK_DRAWS, CK_SECRET "\n",
		  CK_SECRET_HEAD "part jerusalen 0 pass\npart antioquia 0 pass\n", ck_alepo_passes,
		  1000 },
		/* (with resign_result and chance_fill paused: 34 and 62) */
		{ "a resignation with the attack pending",
		  CK_DEALT CK_PENDING("jerusalen, antioquia, alepo", "damasco 1") CK_DRAWS,
		  CK_SECRET "\n", CK_SECRET_HEAD, ck_damasco_resigns, 36 },
		{ "a set-up the seed names", ENC_NEW, ENC_SECRET "\n", NULL, enc_setup, 68 },
	};
	char dir[] = "/tmp/herald-alloc-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	hg_session *s = hg_session_new(HERALD_SRCDATADIR);
	for (size_t i = 0; i < sizeof changes / sizeof *changes; i++) {
		game_master_case c = { s, changes[i].record, changes[i].key, changes[i].secret,
				       changes[i].change, "", "", "", NULL, NULL, NULL };
		snprintf(c.path, sizeof c.path, "%s/g.hgn", dir);
		snprintf(c.key_path, sizeof c.key_path, "%s/g.hgn.key", dir);
		snprintf(c.pending, sizeof c.pending, "%s/g.hgn.key.pending", dir);
		/* undisturbed (the session's data loaded) */
		hg_master *m = game_master_at(&c);
		hg_buf told;
		hg_buf_init(&told);
		hg_diags d;
		hg_diags_init(&d);
		ck_assert_msg(changes[i].change(m, &told, &d) == 0 && d.n == 0, "%s: %s",
			      changes[i].name, d.n ? d.v[0].message : "(no diagnostic)");
		hg_master_close(m);
		hg_buf *after = file_bytes(c.path), *secret = file_bytes(c.pending);
		ck_assert_ptr_nonnull(after);
		ck_assert(!same_bytes(after, c.record));
		c.expected = hg_buf_steal(after);
		c.expected_secret = secret ? hg_buf_steal(secret) : NULL;
		file_bytes_free(after);
		file_bytes_free(secret);
		c.expected_told = hg_buf_steal(&told);
		ck_assert_uint_ge(every_n(changes[i].name, work_game_master, &c),
				  changes[i].allocations);
		free(c.expected);
		free(c.expected_secret);
		free(c.expected_told);
		hg_diags_free(&d);
		unlink(c.path);
		unlink(c.key_path);
		unlink(c.pending);
	}
	hg_session_free(s);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

Suite *unit_suite(void)
{
	Suite *s = suite_create("alloc");
	TCase *direct = tcase_create("the public functions called directly, every allocation "
				     "refused in turn");
	tcase_set_timeout(direct, 60);
	tcase_add_test(direct, public_calls_report_every_failure);
	tcase_add_test(direct, buffer_outside_a_unit);
	suite_add_tcase(s, direct);
	TCase *tc = tcase_create("every allocation refused in turn");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, parser_reports_every_failure);
	tcase_add_test(tc, writers_report_every_failure);
	tcase_add_test(tc, readers_report_every_failure);
	tcase_add_test(tc, check_reports_every_failure);
	suite_add_tcase(s, tc);
	TCase *data = tcase_create("the games' data loaded with every allocation refused in turn");
	tcase_set_timeout(data, 300);
	tcase_add_test(data, data_loading_reports_every_failure);
	tcase_add_test(data, check_with_loading_reports_every_failure);
	tcase_add_test(data, canonicalize_reports_every_failure);
	tcase_add_test(data, generate_reports_every_failure);
	suite_add_tcase(s, data);
	TCase *master = tcase_create("sessions, the game master and the views with every "
				     "allocation refused in turn");
	tcase_set_timeout(master, 120);
	tcase_add_test(master, session_new_reports_every_failure);
	tcase_add_test(master, master_new_and_open_report_every_failure);
	tcase_add_test(master, master_changes_report_every_failure);
	tcase_add_test(master, views_report_every_failure);
	suite_add_tcase(s, master);
	TCase *engines = tcase_create("the engines' callbacks with every allocation refused in turn");
	tcase_set_timeout(engines, 300);
	tcase_add_test(engines, engine_call_maps_a_lost_allocation);
	tcase_add_test(engines, engine_callbacks_report_every_failure);
	tcase_add_test(engines, pattern_match_reports_a_failure);
	tcase_add_test(engines, pattern_compile_reports_every_failure);
	suite_add_tcase(s, engines);
	TCase *writers = tcase_create("the engines' writing and pending callbacks with every "
				      "allocation refused in turn");
	tcase_set_timeout(writers, 300);
	tcase_add_test(writers, engine_writers_map_a_lost_allocation);
	tcase_add_test(writers, engine_writers_report_every_failure);
	tcase_add_test(writers, canonicalize_formats_in_the_unit);
	tcase_add_test(writers, master_pending_and_chance_report_every_failure);
	suite_add_tcase(s, writers);
	return s;
}
