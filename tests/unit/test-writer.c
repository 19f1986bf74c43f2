/* test-writer.c - canonical HGN (herald-notation(5), CANONICAL FORM): the
 * exact layout, and that fmt loses nothing and is idempotent: over fixed
 * inputs, over every record under records/, and over random records built
 * through the model (as the JSON and YAML readers build them). */
#include "unit.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "herald.h"
#include "lexer.h"

/* Parses every game of text; fails the test on a parse error unless
 * `errors_ok`. */
static size_t parse_all(const char *name, const char *text, size_t len, int errors_ok,
			hg_game_record ***out)
{
	hg_diags d;
	hg_diags_init(&d);
	hg_parser *p = hg_parser_open_mem(name, text, len);
	hg_game_record **v = NULL, *g;
	size_t n = 0;
	while (hg_parser_next(p, &g, &d) == 1) {
		v = hg_xrealloc(v, (n + 1) * sizeof *v);
		v[n++] = g;
	}
	hg_parser_close(p);
	if (!errors_ok && d.nerrors) {	/* a warning (a glued game) is no failure */
		size_t first = 0;
		while (d.v[first].severity != HG_ERROR)
			first++;
		hg_buf b;
		hg_buf_init(&b);
		hg_diag_format(&d.v[first], &b, 0);
		ck_abort_msg("%s does not parse: %s--- text:\n%s", name, b.data, text);
	}
	hg_diags_free(&d);
	*out = v;
	return n;
}

static void free_all(hg_game_record **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		hg_record_free(v[i]);
	free(v);
}

/* fmt: every game of text, written canonically. */
static char *fmt(const char *text, size_t len, int errors_ok)
{
	hg_game_record **v;
	size_t n = parse_all("t.hgn", text, len, errors_ok, &v);
	hg_buf out;
	hg_buf_init(&out);
	for (size_t i = 0; i < n; i++)
		hg_write_hgn(v[i], &out);
	free_all(v, n);
	return hg_buf_steal(&out);
}

static char *fmt_str(const char *text)
{
	return fmt(text, strlen(text), 0);
}

/* ------------------------------------------------------------------------
 * Structural equality of records (positions aside; tags as a set, since
 * the writer puts them in canonical order)
 * ------------------------------------------------------------------------ */

static void line_equal(const hg_line *a, const hg_line *b, const char *where);

static void node_equal(const hg_node *a, const hg_node *b, const char *where)
{
	ck_assert_msg(a->kind == b->kind, "%s: kind %d != %d", where, a->kind, b->kind);
	switch (a->kind) {
	case HG_NODE_MOVENUM:
	case HG_NODE_NAG:
		ck_assert_msg(a->number == b->number, "%s: number", where);
		break;
	case HG_NODE_ACTION:
		ck_assert_msg(strcmp(a->action.seat, b->action.seat) == 0, "%s: seat", where);
		ck_assert_msg(strcmp(a->action.text, b->action.text) == 0, "%s: '%s' != '%s'",
			      where, a->action.text, b->action.text);
		ck_assert_msg(a->action.ntoks == b->action.ntoks, "%s: ntoks", where);
		for (size_t i = 0; i < a->action.ntoks; i++) {
			ck_assert_msg(a->action.toks[i].kind == b->action.toks[i].kind,
				      "%s: token kind", where);
			ck_assert_msg(strcmp(a->action.toks[i].text, b->action.toks[i].text) == 0,
				      "%s: token", where);
			ck_assert_msg(a->action.toks[i].off == b->action.toks[i].off, "%s: off", where);
		}
		ck_assert_msg((a->glyph == NULL) == (b->glyph == NULL) &&
			      (!a->glyph || strcmp(a->glyph, b->glyph) == 0), "%s: glyph", where);
		break;
	case HG_NODE_COMMENT:
		ck_assert_msg(strcmp(a->comment, b->comment) == 0, "%s: comment '%s' != '%s'", where,
			      a->comment, b->comment);
		ck_assert_msg(a->line_comment == b->line_comment, "%s: comment kind", where);
		break;
	case HG_NODE_VARIATION:
		line_equal(a->variation, b->variation, where);
		break;
	}
}

static void line_equal(const hg_line *a, const hg_line *b, const char *where)
{
	ck_assert_msg(a->n == b->n, "%s: %zu nodes != %zu", where, a->n, b->n);
	for (size_t i = 0; i < a->n; i++)
		node_equal(&a->nodes[i], &b->nodes[i], where);
}

static void records_equal(const hg_game_record *a, const hg_game_record *b)
{
	ck_assert_uint_eq(a->ntags, b->ntags);
	for (size_t i = 0; i < a->ntags; i++) {
		const char *v = hg_record_tag_value(b, a->tags[i].name);
		ck_assert_msg(v && strcmp(v, a->tags[i].value) == 0, "tag %s", a->tags[i].name);
	}
	line_equal(&a->header, &b->header, "header");
	line_equal(&a->moves, &b->moves, "moves");
	line_equal(&a->trailer, &b->trailer, "trailer");
	ck_assert_msg((a->result == NULL) == (b->result == NULL), "result");
	if (a->result)
		ck_assert_str_eq(a->result, b->result);
}

/* fmt(fmt(x)) == fmt(x), and parse(fmt(x)) holds what parse(x) held. */
static void check_round_trip(const char *name, const char *text, size_t len, int errors_ok)
{
	hg_game_record **first;
	size_t n = parse_all(name, text, len, errors_ok, &first);
	hg_buf once;
	hg_buf_init(&once);
	for (size_t i = 0; i < n; i++)
		hg_write_hgn(first[i], &once);
	hg_game_record **again;
	size_t m = parse_all("once.hgn", once.data ? once.data : "", once.len, errors_ok, &again);
	ck_assert_msg(m == n, "%s: %zu games, then %zu", name, n, m);
	hg_buf twice;
	hg_buf_init(&twice);
	for (size_t i = 0; i < m; i++) {
		if (!errors_ok)
			records_equal(first[i], again[i]);
		hg_write_hgn(again[i], &twice);
	}
	ck_assert_msg(once.len == twice.len && (once.len == 0 || memcmp(once.data, twice.data, once.len) == 0),
		      "%s: fmt is not idempotent:\n%s---\n%s", name, once.data, twice.data);
	free_all(first, n);
	free_all(again, m);
	hg_buf_free(&once);
	hg_buf_free(&twice);
}

/* ------------------------------------------------------------------------
 * The canonical layout, exactly
 * ------------------------------------------------------------------------ */

START_TEST(canonical_layout)
{
	char *got = fmt_str(
		"[Zeta \"z\"] [Seat10 \"j\"]\n[Result \"*\"]\n{hdr}\n[Seat2 \"b\"]\n; c1\n"
		"[Game \"g\"][Seat1 \"a\"]\n[Date \"????.??.??\"]\n[Alpha \"a\\\\b\\\"c\"]\n"
		"[Round \"3\"] [Site \"Zaragoza\"] [Event \"Open\"] [Seat3 \"c\"] [Seat4 \"d\"]\n"
		"[Seat5 \"e\"] [Seat6 \"f\"] [Seat7 \"g\"] [Seat8 \"h\"] [Seat9 \"i\"] [Seat01 \"x\"]\n"
		"{before moves}\n"
		"1. P1: aaaaaaaaaa    bbbbbbbbbb\ncccccccccc P1: dddddddddd eeeeeeeeee ffffffffff "
		"gggggggggg P2: x (P1: y ;   why  \n) () (P1: z (P2: w)) {multi\nline comment}"
		" P3: after $12 P4: zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz"
		"zzzzzzzzzzzzzzzzzzzzz\n"
		"02. (2. P1: v) P2: c07! P1: ?!; end\n* ; t1\n{t2}\n");
	ck_assert_str_eq(got,
		"{hdr}\n"
		"; c1\n"
		"[Game \"g\"]\n"
		"[Event \"Open\"]\n"
		"[Site \"Zaragoza\"]\n"
		"[Date \"????.??.??\"]\n"
		"[Round \"3\"]\n"
		"[Seat1 \"a\"]\n[Seat2 \"b\"]\n[Seat3 \"c\"]\n[Seat4 \"d\"]\n[Seat5 \"e\"]\n"
		"[Seat6 \"f\"]\n[Seat7 \"g\"]\n[Seat8 \"h\"]\n[Seat9 \"i\"]\n[Seat10 \"j\"]\n"
		"[Result \"*\"]\n"
		"[Zeta \"z\"]\n"
		"[Alpha \"a\\\\b\\\"c\"]\n"
		"[Seat01 \"x\"]\n"
		"\n"
		"{before moves}\n"
		"1. P1: aaaaaaaaaa bbbbbbbbbb cccccccccc\n"
		"P1: dddddddddd eeeeeeeeee ffffffffff gggggggggg P2: x (P1: y ; why\n"
		") () (P1: z (P2: w)) {multi\n"
		"line comment} P3: after $12\n"
		"P4: zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz\n"
		"2. (2. P1: v) P2: c07! P1: ?! ; end\n"
		"*\n"
		"; t1\n"
		"{t2}\n");
	free(got);
}
END_TEST

START_TEST(lines_wrap_before_column_80)
{
	/* "1. P1: " is 7 characters: a body of 72 fills the line to 79 */
	char body[80];
	memset(body, 'x', 72);
	body[72] = '\0';
	hg_buf src;
	hg_buf_init(&src);
	hg_buf_printf(&src, "[Game \"g\"]\n[Date \"????.??.??\"]\n[Players \"a\"]\n[Result \"*\"]\n"
		      "1. P1: %s 2. P1: %.71s $1 3. P1: %.71s {é}\n*\n", body, body, body);
	char *got = fmt_str(src.data);
	/* "2. P1: x{71}" is 78 characters: " $1" would make 81; the same for " {é}" */
	hg_buf want;
	hg_buf_init(&want);
	hg_buf_printf(&want, "[Game \"g\"]\n[Date \"????.??.??\"]\n[Players \"a\"]\n[Result \"*\"]\n\n"
		      "1. P1: %s\n2. P1: %.71s\n$1\n3. P1: %.71s\n{é}\n*\n", body, body, body);
	ck_assert_str_eq(got, want.data);
	free(got);

	/* an item that fits exactly: 78 + " $1" is 81, but 76 + " $1" is 79 */
	hg_buf_clear(&src);
	hg_buf_printf(&src, "[Game \"g\"]\n[Date \"????.??.??\"]\n[Players \"a\"]\n[Result \"*\"]\n"
		      "1. P1: %.69s $1 $2\n*\n", body);
	got = fmt_str(src.data);
	hg_buf_clear(&want);
	hg_buf_printf(&want, "[Game \"g\"]\n[Date \"????.??.??\"]\n[Players \"a\"]\n[Result \"*\"]\n\n"
		      "1. P1: %.69s $1\n$2\n*\n", body);
	ck_assert_str_eq(got, want.data);
	free(got);
	/* columns count characters, not bytes */
	hg_buf_clear(&src);
	hg_buf_puts(&src, "[Game \"g\"]\n[Date \"????.??.??\"]\n[Players \"a\"]\n[Result \"*\"]\n1. P1:");
	for (int i = 0; i < 33; i++)
		hg_buf_puts(&src, " á");
	hg_buf_puts(&src, " $3\n*\n");
	got = fmt_str(src.data);
	/* 6 + 66 = 72 characters (105 bytes): " $3" fits */
	ck_assert_ptr_nonnull(strstr(got, " á $3\n*"));
	free(got);
	hg_buf_free(&src);
	hg_buf_free(&want);
}
END_TEST

START_TEST(variations_and_comments_in_line)
{
	char *got = fmt_str("[Game \"g\"]\n[Date \"????.??.??\"]\n[Players \"a\"]\n[Result \"*\"]\n"
			    "P1: a (; first\nP1: b) ((P1: c)) (()) {x} ( {y} )\n*\n");
	ck_assert_str_eq(got, "[Game \"g\"]\n[Date \"????.??.??\"]\n[Players \"a\"]\n[Result \"*\"]\n\n"
			 "P1: a (; first\nP1: b) ((P1: c)) (()) {x} ({y})\n*\n");
	free(got);
	/* a game without move text, with a string result that needs escapes */
	got = fmt_str("[Game \"g\"]\n[Date \"????.??.??\"]\n[Players \"a\"]\n"
		      "[Result \"Ana \\\"la\\\" \\\\ 2\"]\n\"Ana \\\"la\\\" \\\\ 2\" ;\n");
	ck_assert_str_eq(got, "[Game \"g\"]\n[Date \"????.??.??\"]\n[Players \"a\"]\n"
			 "[Result \"Ana \\\"la\\\" \\\\ 2\"]\n\n\"Ana \\\"la\\\" \\\\ 2\"\n;\n");
	free(got);
	/* the string "*" is the star */
	got = fmt_str("[Game \"g\"]\n[Date \"????.??.??\"]\n[Players \"a\"]\n[Result \"*\"]\n\"*\"\n");
	ck_assert_ptr_nonnull(strstr(got, "\n\n*\n"));
	free(got);
}
END_TEST

START_TEST(comments_on_their_own_lines_stay_there)
{
	/* A teacher's note on lines of its own stays on its own lines; one
	 * written beside the moves stays in line. */
	const char *head = "[Game \"g\"]\n[Date \"????.??.??\"]\n[Players \"a\"]\n[Result \"*\"]\n\n";
	hg_buf src, want;
	hg_buf_init(&src);
	hg_buf_init(&want);
	hg_buf_printf(&src, "%s1. P1: a\n{Why a: the centre.}\nP1: b {in line} P1: c\n"
		      "{two\nlines}\n\nP1: d ; after d\n; alone\nP1: e\n*\n", head);
	hg_buf_printf(&want, "%s1. P1: a\n{Why a: the centre.}\nP1: b {in line} P1: c\n"
		      "{two\nlines}\nP1: d ; after d\n; alone\nP1: e\n*\n", head);
	char *got = fmt_str(src.data);
	ck_assert_str_eq(got, want.data);
	char *again = fmt_str(got);
	ck_assert_str_eq(again, got);
	free(again);
	free(got);
	hg_buf_free(&src);
	hg_buf_free(&want);
}
END_TEST

START_TEST(games_are_separated_by_one_blank_line)
{
	char *got = fmt_str("[Game \"a\"]\n[Date \"????.??.??\"]\n[Players \"a\"]\n[Result \"*\"]\n"
			    "* ; end of a\n\n\n\n; about b\n"
			    "[Game \"b\"]\n[Date \"????.??.??\"]\n[Players \"a\"]\n[Result \"*\"]\n*");
	ck_assert_str_eq(got, "[Game \"a\"]\n[Date \"????.??.??\"]\n[Players \"a\"]\n[Result \"*\"]\n"
			 "\n*\n; end of a\n"
			 "\n; about b\n"
			 "[Game \"b\"]\n[Date \"????.??.??\"]\n[Players \"a\"]\n[Result \"*\"]\n\n*\n");
	free(got);
}
END_TEST

/* A record built through the model, as the converters build one. */
START_TEST(records_built_by_hand)
{
	hg_diags d;
	hg_diags_init(&d);
	hg_game_record *g = hg_record_new("built.hgn");
	hg_record_set_tag(g, "Result", "antioquia");
	hg_record_set_tag(g, "Players", "Ana; Ben; Carla; Dani");
	hg_record_set_tag(g, "Game", "crusader-kingdoms");
	hg_record_set_tag(g, "Date", "2026.11.??");
	hg_pos pos = { g->file, 0, 0 };
	hg_line_push(&g->moves, HG_NODE_MOVENUM, pos)->number = 1;
	hg_node *n = hg_line_push(&g->moves, HG_NODE_ACTION, pos);
	ck_assert_int_eq(hg_action_text_set(&n->action, "antioquia",
					    "attack homs from latakia with 2 3 ?", pos, &d), 0);
	n->glyph = hg_xstrdup("!?");
	n = hg_line_push(&g->moves, HG_NODE_COMMENT, pos);
	n->comment = hg_xstrdup("Líder adds 2 and 1");
	n = hg_line_push(&g->moves, HG_NODE_VARIATION, pos);
	n->variation = hg_line_new();
	hg_node *v = hg_line_push(n->variation, HG_NODE_ACTION, pos);
	ck_assert_int_eq(hg_action_text_set(&v->action, "antioquia", "pass", pos, &d), 0);
	hg_line_push(n->variation, HG_NODE_NAG, pos)->number = 6;
	g->result = hg_xstrdup("antioquia");
	hg_buf out;
	hg_buf_init(&out);
	hg_write_hgn(g, &out);
	ck_assert_str_eq(out.data,
		"[Game \"crusader-kingdoms\"]\n[Date \"2026.11.??\"]\n[Players \"Ana; Ben; Carla; Dani\"]\n"
		"[Result \"antioquia\"]\n\n"
		"1. antioquia: attack homs from latakia with 2 3 ?!? {Líder adds 2 and 1}\n"
		"(antioquia: pass $6)\n"
		"\"antioquia\"\n");
	hg_game_record **back;
	ck_assert_uint_eq(parse_all("out.hgn", out.data, out.len, 0, &back), 1);
	records_equal(g, back[0]);
	free_all(back, 1);
	hg_record_free(g);
	hg_buf_free(&out);
	ck_assert_uint_eq(d.n, 0);
	hg_diags_free(&d);
}
END_TEST

/* hg_canonicalize rewrites an action that is not in its game's canonical
 * spelling, and keeps one that is as it was read: its text, and its tokens
 * at the places in the file they were read from. */
START_TEST(canonicalize_keeps_what_is_canonical)
{
	static const char text[] =
		"[Game \"Crusader Kingdoms\"]\n"
		"[Date \"????.??.??\"]\n"
		"[Players \"Unur; Melisende; Reynald; Nur\"]\n"
		"[Result \"*\"]\n"
		"[Scenario \"2\u00aa Cruzada\"]\n"
		"\n"
		"1.\n"
		"damasco: draw tropa-2 tropa-3\n"
		"  tropa-4 comercio murallas sucesion tregua mercenarios\n"
		"jerusalen: robar tropa-2 tropa-3 tropa-4 ataque-conjunto trovadores turcopolos incursion tropa-1\n"
		"*\n";
	hg_game_record **v;
	ck_assert_uint_eq(parse_all("c.hgn", text, strlen(text), 0, &v), 1);
	hg_session *s = hg_session_new(HERALD_SRCDATADIR);
	hg_diags d;
	hg_diags_init(&d);
	ck_assert_int_eq(hg_canonicalize(s, v[0], &d), 0);
	ck_assert_uint_eq(d.n, 0);
	const hg_action_text *kept = &v[0]->moves.nodes[1].action;
	const hg_action_text *rewritten = &v[0]->moves.nodes[2].action;
	ck_assert_str_eq(kept->text,
			 "draw tropa-2 tropa-3 tropa-4 comercio murallas sucesion tregua mercenarios");
	ck_assert_uint_eq(kept->ntoks, 9);
	ck_assert_str_eq(kept->toks[3].text, "tropa-4");
	ck_assert_uint_eq(kept->toks[3].pos.line, 9);
	ck_assert_uint_eq(kept->toks[3].pos.col, 3);
	ck_assert_str_eq(rewritten->seat, "jerusalen");
	ck_assert_str_eq(rewritten->text, "draw tropa-2 tropa-3 tropa-4 ataque-conjunto trovadores "
			 "turcopolos incursion tropa-1");
	ck_assert_uint_eq(rewritten->ntoks, 9);
	ck_assert_str_eq(rewritten->toks[8].text, "tropa-1");
	hg_diags_free(&d);
	free_all(v, 1);
	hg_session_free(s);
}
END_TEST

START_TEST(fixed_inputs_round_trip)
{
	static const char *const inputs[] = {
		("; a line comment\n[Game \"kingdoms-of-crusaders\"]\n[Date \"2026.11.21\"]\n"
		"[Players \"Ana; Ben\"]\n[Seed \"club-final-3\"]\n[Result \"P1\"]\n\n"
		"1. P1: draw c12 P1: place c12 3 {Ana opens} P2: draw c07 P2: place c07 1!\n"
		"2. P1: draw ? P1: place c22 3 $1 (P1: place c22 4 {better?}) P2: draw ?!\n\"P1\"\n"),
		("[Game \"encrucijada\"]\n[Date \"????.??.??\"]\n[Seat1 \"Ana\"]\n[Seat2 \"Ben\"]\n"
		"[Result \"*\"]\n1. P1: draw pile 2 P1: put c1 hidden @ 3 , c2 visible (P1: draw pile 1\n"
		"(P1: draw pile 3 ; deeper\n) {a\n\n  long\n\tcomment}) $255 $0 P2: draw ?? P2: x?!\n*\n"),
		("{only a brace header}\n[Game \"g\"]\n[Date \"????.??.??\"]\n[Players \"a\"]\n[Result \"*\"]\n"
		"*\n\n{second header}\n[Game \"g\"]\n[Date \"????.??.??\"]\n[Players \"a\"]\n"
		"[Result \"*\"]\n1. P1: a 2. P1: b 3. P1: c\n* {t}\n\n; at the end\n"),
		("[Game \"g\"]\r\n[Date \"????.??.??\"]\r\n[Players \"a\"]\r\n[Result \"*\"]\r\n\r\n"
		"P1: x {crlf\r\ncomment} ; line\r\n*\r\n"),
	};
	for (size_t i = 0; i < HG_ARRAY_LEN(inputs); i++) {
		char name[32];
		snprintf(name, sizeof name, "input-%zu", i);
		check_round_trip(name, inputs[i], strlen(inputs[i]), 0);
	}
}
END_TEST

static char *read_file(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	ck_assert_msg(fp != NULL, "cannot open %s", path);
	hg_buf b;
	hg_buf_init(&b);
	char chunk[4096];
	size_t n;
	while ((n = fread(chunk, 1, sizeof chunk, fp)) > 0)
		hg_buf_putn(&b, chunk, n);
	fclose(fp);
	*len = b.len;
	return hg_buf_steal(&b);
}

/* Round-trips every *.hgn under dir; returns how many. */
static size_t round_trip_dir(const char *dir)
{
	DIR *dp = opendir(dir);
	if (!dp)
		return 0;
	size_t count = 0;
	struct dirent *de;
	while ((de = readdir(dp)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		hg_buf path;
		hg_buf_init(&path);
		hg_buf_printf(&path, "%s/%s", dir, de->d_name);
		struct stat st;
		size_t nlen = strlen(de->d_name);
		if (stat(path.data, &st) == 0 && S_ISDIR(st.st_mode)) {
			count += round_trip_dir(path.data);
		} else if (nlen > 4 && strcmp(de->d_name + nlen - 4, ".hgn") == 0) {
			size_t len;
			char *text = read_file(path.data, &len);
			/* malformed records have errors: only idempotence is asked of them */
			check_round_trip(path.data, text, len, strstr(path.data, "/malformed/") != NULL);
			free(text);
			count++;
		}
		hg_buf_free(&path);
	}
	closedir(dp);
	return count;
}

START_TEST(every_record_round_trips)
{
	const char *top = getenv("top_srcdir");
	ck_assert_msg(top != NULL, "top_srcdir is not set (make check exports it)");
	hg_buf dir;
	hg_buf_init(&dir);
	hg_buf_printf(&dir, "%s/records", top);
	ck_assert_uint_ge(round_trip_dir(dir.data), 20);
	hg_buf_free(&dir);
}
END_TEST

/* ------------------------------------------------------------------------
 * Random records, built through the model
 * ------------------------------------------------------------------------ */

static uint32_t rng = 2026;

static uint32_t rnd(uint32_t n)
{
	rng = rng * 1664525u + 1013904223u;
	return (rng >> 8) % n;
}

static const char *pick(const char *const *v, size_t n)
{
	return v[rnd((uint32_t)n)];
}

#define PICK(v) pick((v), HG_ARRAY_LEN(v))

/* Comment text: anything but '}' and NUL (and CR, which a CR LF line end
 * drops, and a '[' that could begin a game). */
static char *random_text(int line)
{
	static const char *const bits[] = {
		"a", "Líder", " ", "  ", "{", "(", ")", ";", "\"", "\\", "$1", "P1:", "1.",
		"*", "!", "?", "\t", "🏰", "ñ", "]", "x",
	};
	hg_buf b;
	hg_buf_init(&b);
	int n = (int)rnd(8);
	for (int i = 0; i < n; i++) {
		if (!line && rnd(6) == 0)
			hg_buf_putc(&b, '\n');
		hg_buf_puts(&b, PICK(bits));
	}
	char *s = hg_buf_steal(&b);
	if (line) {	/* a ';' comment is kept trimmed */
		char *t = s;
		while (*t == ' ' || *t == '\t')
			t++;
		size_t len = strlen(t);
		while (len && (t[len - 1] == ' ' || t[len - 1] == '\t'))
			len--;
		char *r = hg_xstrndup(t, len);
		free(s);
		s = r;
	}
	return s;
}

static void random_comment(hg_line *l, hg_pos pos)
{
	hg_node *n = hg_line_push(l, HG_NODE_COMMENT, pos);
	n->line_comment = (int)rnd(2);
	n->comment = random_text(n->line_comment);
}

static void random_line(hg_line *l, int depth, hg_pos pos)
{
	static const char *const seats[] = { "P1", "P2", "antioquia", "Antioquía", "P-3", "7" };
	static const char *const toks[] = {
		"draw", "c12", "3.5", "?", ",", "/", "+", "=", ">", "<", "@", "&", "|", "~",
		"^", "%", "007", "12", "o'neil", "#4", "x_y", "...", "ḩoms", "pile", "-1",
	};
	static const char *const glyphs[] = { "!", "?", "!!", "??", "!?", "?!" };
	int n = (int)rnd(10);
	for (int i = 0; i < n; i++) {
		switch (rnd(depth < 3 ? 6 : 5)) {
		case 0:
			hg_line_push(l, HG_NODE_MOVENUM, pos)->number = rnd(300);
			break;
		case 1:
		case 2: {
			hg_buf body;
			hg_buf_init(&body);
			int k = 1 + (int)rnd(6);
			for (int j = 0; j < k; j++)
				hg_buf_printf(&body, "%s%s", j ? " " : "", PICK(toks));
			hg_node *a = hg_line_push(l, HG_NODE_ACTION, pos);
			ck_assert_int_eq(hg_action_text_set(&a->action, PICK(seats), body.data, pos, NULL), 0);
			if (rnd(3) == 0)
				a->glyph = hg_xstrdup(PICK(glyphs));
			hg_buf_free(&body);
			break;
		}
		case 3:
			random_comment(l, pos);
			break;
		case 4:
			hg_line_push(l, HG_NODE_NAG, pos)->number = rnd(256);
			break;
		case 5: {
			hg_node *v = hg_line_push(l, HG_NODE_VARIATION, pos);
			v->variation = hg_line_new();
			random_line(v->variation, depth + 1, pos);
			break;
		}
		}
	}
}

static hg_game_record *random_record(void)
{
	static const char *const values[] = {
		"x", "a \"quoted\" value", "back\\slash", "Antioquía", "", " spaced ", "🏰",
	};
	static const char *const results[] = { "*", "P1", "Ana \"la\" 2ª", "draw" };
	hg_game_record *g = hg_record_new("random.hgn");
	hg_pos pos = { g->file, 0, 0 };
	int nh = (int)rnd(3);
	for (int i = 0; i < nh; i++)
		random_comment(&g->header, pos);
	int extra = (int)rnd(4);
	for (int i = 0; i < extra; i++) {
		char name[16];
		snprintf(name, sizeof name, "Tag%d", (int)rnd(9));
		hg_record_set_tag(g, name, PICK(values));
	}
	hg_record_set_tag(g, "Game", "kingdoms-of-crusaders");
	hg_record_set_tag(g, "Date", "2026.??.??");
	if (rnd(2))
		hg_record_set_tag(g, "Players", "Ana; Ben");
	else {
		hg_record_set_tag(g, "Seat2", "Ben");
		hg_record_set_tag(g, "Seat1", "Ana");
	}
	const char *result = PICK(results);
	hg_record_set_tag(g, "Result", result);
	g->result = hg_xstrdup(result);
	random_line(&g->moves, 0, pos);
	int nt = (int)rnd(3);
	for (int i = 0; i < nt; i++)
		random_comment(&g->trailer, pos);
	return g;
}

START_TEST(random_records_round_trip)
{
	for (int round = 0; round < 400; round++) {
		int ngames = 1 + (int)rnd(3);
		hg_game_record *gs[3];
		hg_buf once;
		hg_buf_init(&once);
		for (int i = 0; i < ngames; i++) {
			gs[i] = random_record();
			hg_write_hgn(gs[i], &once);
		}
		hg_game_record **back;
		ck_assert_uint_eq(parse_all("random.hgn", once.data, once.len, 0, &back),
				  (size_t)ngames);
		hg_buf twice;
		hg_buf_init(&twice);
		for (int i = 0; i < ngames; i++) {
			records_equal(gs[i], back[i]);
			hg_write_hgn(back[i], &twice);
			hg_record_free(gs[i]);
		}
		ck_assert_str_eq(once.data, twice.data);
		ck_assert_int_eq(once.data[once.len - 1], '\n');
		free_all(back, (size_t)ngames);
		hg_buf_free(&once);
		hg_buf_free(&twice);
	}
}
END_TEST

Suite *unit_suite(void)
{
	Suite *s = suite_create("writer");
	TCase *tc = tcase_create("writer");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, canonical_layout);
	tcase_add_test(tc, lines_wrap_before_column_80);
	tcase_add_test(tc, variations_and_comments_in_line);
	tcase_add_test(tc, comments_on_their_own_lines_stay_there);
	tcase_add_test(tc, games_are_separated_by_one_blank_line);
	tcase_add_test(tc, records_built_by_hand);
	tcase_add_test(tc, canonicalize_keeps_what_is_canonical);
	tcase_add_test(tc, fixed_inputs_round_trip);
	tcase_add_test(tc, every_record_round_trips);
	tcase_add_test(tc, random_records_round_trip);
	suite_add_tcase(s, tc);
	return s;
}
