/* test-parser.c - the HGN parser (grammar/hgn.ebnf, Parts 2 and 3): the
 * record it builds, every diagnostic it emits, recovery, multi-game files,
 * streaming, limits, hostile bytes, and every records/malformed/ record
 * against its .expect sidecar. */
#include "unit.h"
#include "unit-parse.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "herald.h"
#include "internal.h"
#include "lexer.h"

/* Parses every game of a parser; returns the last hg_parser_next result. */
static int parse_with(hg_parser *p, hg_diags *d, unit_games *gs)
{
	hg_game_record *g;
	int rc;
	memset(gs, 0, sizeof *gs);
	while ((rc = hg_parser_next(p, &g, d)) == 1) {
		ck_assert_ptr_nonnull(g);
		unit_games_push(gs, g);
	}
	return rc;
}

static size_t parse_n(const char *text, size_t len, const hg_limits *lim, hg_diags *d,
		      unit_games *gs)
{
	hg_parser *p = hg_parser_open_mem("t.hgn", text, len);
	if (lim)
		hg_parser_set_limits(p, lim);
	ck_assert_int_eq(parse_with(p, d, gs), 0);
	hg_parser_close(p);
	return gs->n;
}

static size_t parse(const char *text, hg_diags *d, unit_games *gs)
{
	return parse_n(text, strlen(text), NULL, d, gs);
}

/* Diagnostics as "line:col code" lines. */
static char *codes(const hg_diags *d)
{
	hg_buf b;
	hg_buf_init(&b);
	for (size_t i = 0; i < d->n; i++)
		hg_buf_printf(&b, "%u:%u %s\n", d->v[i].line, d->v[i].col, d->v[i].code);
	return hg_buf_steal(&b);
}

/* The GNU text of the diagnostics, without colour and without notes. */
static char *diag_text(const hg_diags *d)
{
	hg_buf b, one;
	hg_buf_init(&b);
	hg_buf_init(&one);
	for (size_t i = 0; i < d->n; i++) {
		hg_buf_clear(&one);
		hg_diag_format(&d->v[i], &one, 0);
		const char *nl = strchr(one.data, '\n');
		hg_buf_putn(&b, one.data, (size_t)(nl - one.data) + 1);
	}
	hg_buf_free(&one);
	return hg_buf_steal(&b);
}

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

#define HEAD "[Game \"kingdoms-of-crusaders\"]\n[Date \"2026.11.21\"]\n[Players \"Ana; Ben\"]\n"

static const char brief_example[] =
	"; a line comment\n"
	"[Game \"kingdoms-of-crusaders\"]\n"
	"[Date \"2026.11.21\"]\n"
	"[Players \"Ana; Ben\"]\n"
	"[Seed \"club-final-3\"]\n"
	"[Result \"P1\"]\n"
	"\n"
	"1. P1: draw c12 P1: place c12 3 {Ana opens} P2: draw c07 P2: place c07 1!\n"
	"2. P1: draw ? P1: place c22 3 $1 (P1: place c22 4 {better?}) P2: draw ?!\n"
	"\"P1\"\n";

START_TEST(brief_example_builds_the_record)
{
	hg_diags d;
	hg_diags_init(&d);
	unit_games gs;
	ck_assert_uint_eq(parse(brief_example, &d, &gs), 1);
	ck_assert_uint_eq(d.n, 0);
	hg_game_record *g = gs.v[0];
	ck_assert_str_eq(g->file, "t.hgn");
	ck_assert_uint_eq(g->pos.line, 1);	/* the first header comment */
	ck_assert_uint_eq(g->header.n, 1);
	ck_assert_str_eq(g->header.nodes[0].comment, "a line comment");
	ck_assert_int_eq(g->header.nodes[0].line_comment, 1);
	ck_assert_uint_eq(g->ntags, 5);
	ck_assert_str_eq(hg_record_tag_value(g, "Seed"), "club-final-3");
	const hg_tag *game = hg_record_tag(g, "Game");
	ck_assert_uint_eq(game->pos.line, 2);
	ck_assert_uint_eq(game->pos.col, 7);	/* the value */
	ck_assert_str_eq(g->result, "P1");
	ck_assert_uint_eq(g->result_pos.line, 10);
	ck_assert_uint_eq(g->result_pos.col, 1);

	const hg_line *m = &g->moves;
	ck_assert_uint_eq(m->n, 12);
	static const hg_node_kind kinds[] = {
		HG_NODE_MOVENUM, HG_NODE_ACTION, HG_NODE_ACTION, HG_NODE_COMMENT,
		HG_NODE_ACTION, HG_NODE_ACTION, HG_NODE_MOVENUM, HG_NODE_ACTION,
		HG_NODE_ACTION, HG_NODE_NAG, HG_NODE_VARIATION, HG_NODE_ACTION,
	};
	for (size_t i = 0; i < HG_ARRAY_LEN(kinds); i++)
		ck_assert_msg(m->nodes[i].kind == kinds[i], "node %zu", i);
	ck_assert_uint_eq(m->nodes[0].number, 1);
	const hg_node *place = &m->nodes[2];
	ck_assert_str_eq(place->action.seat, "P1");
	ck_assert_str_eq(place->action.text, "place c12 3");
	ck_assert_uint_eq(place->action.ntoks, 3);
	ck_assert_int_eq(place->action.toks[2].kind, HG_ATOK_NUMBER);
	ck_assert_uint_eq(place->pos.line, 8);
	ck_assert_uint_eq(place->pos.col, 17);
	ck_assert_uint_eq(place->action.pos.col, 21);
	ck_assert_ptr_eq(place->pos.file, g->file);
	ck_assert_ptr_eq(place->action.toks[0].pos.file, g->file);
	ck_assert_ptr_null(place->glyph);
	ck_assert_str_eq(m->nodes[3].comment, "Ana opens");
	ck_assert_int_eq(m->nodes[3].line_comment, 0);
	ck_assert_str_eq(m->nodes[5].glyph, "!");
	ck_assert_str_eq(m->nodes[5].action.text, "place c07 1");
	ck_assert_int_eq(m->nodes[7].action.toks[1].kind, HG_ATOK_UNKNOWN);
	ck_assert_uint_eq(m->nodes[9].number, 1);
	const hg_line *v = m->nodes[10].variation;
	ck_assert_uint_eq(v->n, 2);
	ck_assert_str_eq(v->nodes[0].action.text, "place c22 4");
	ck_assert_str_eq(v->nodes[1].comment, "better?");
	ck_assert_str_eq(m->nodes[11].action.text, "draw ?");
	ck_assert_str_eq(m->nodes[11].glyph, "!");
	unit_games_free(&gs);
	hg_diags_free(&d);
}
END_TEST

/* A parsed game's tags live in its arena (no allocation each); a duplicate
 * tag's copies are let go, and hg_record_set_tag() changes and adds tags
 * of a parsed record and of a record built by hand alike. */
START_TEST(tags_live_in_the_record_arena)
{
	hg_diags d;
	hg_diags_init(&d);
	unit_games gs;
	ck_assert_uint_eq(parse(HEAD "[Seed \"s1\"]\n[Seed \"s2\"]\n[Result \"*\"]\n\n"
				"1. P1: draw c12\n*\n", &d, &gs), 1);
	ck_assert_uint_eq(d.n, 1);
	ck_assert_str_eq(d.v[0].code, "hgn.duplicate-tag");
	hg_game_record *g = gs.v[0];
	ck_assert_int_eq(hg_record_impl_of(g)->tags_in_arena, 1);
	ck_assert_uint_eq(g->ntags, 5);
	ck_assert_str_eq(hg_record_tag_value(g, "Seed"), "s1");
	hg_record_set_tag(g, "Seed", "a longer seed than before");
	hg_record_set_tag(g, "Round", "3");
	ck_assert_uint_eq(g->ntags, 6);
	ck_assert_str_eq(hg_record_tag_value(g, "Seed"), "a longer seed than before");
	ck_assert_str_eq(hg_record_tag_value(g, "Round"), "3");
	ck_assert_str_eq(hg_record_tag_value(g, "Players"), "Ana; Ben");
	unit_games_free(&gs);

	hg_game_record *h = hg_record_new("by-hand");
	ck_assert_int_eq(hg_record_impl_of(h)->tags_in_arena, 0);
	hg_record_set_tag(h, "Game", "kingdoms-of-crusaders");
	hg_record_set_tag(h, "Game", "encrucijada");
	ck_assert_uint_eq(h->ntags, 1);
	ck_assert_str_eq(hg_record_tag_value(h, "Game"), "encrucijada");
	hg_record_free(h);
	hg_diags_free(&d);
}
END_TEST

START_TEST(bodies_span_lines)
{
	hg_diags d;
	hg_diags_init(&d);
	unit_games gs;
	parse(HEAD "[Result \"*\"]\n\nantioquia: attack homs from latakia\n"
	      "  with 2 3\n  dice 1 3 4 4 6 damasco: pass\n*\n", &d, &gs);
	ck_assert_uint_eq(d.n, 0);
	const hg_line *m = &gs.v[0]->moves;
	ck_assert_uint_eq(m->n, 2);
	ck_assert_str_eq(m->nodes[0].action.text,
			 "attack homs from latakia with 2 3 dice 1 3 4 4 6");
	ck_assert_uint_eq(m->nodes[0].action.toks[4].pos.line, 7);
	ck_assert_uint_eq(m->nodes[0].action.toks[4].pos.col, 3);
	ck_assert_str_eq(m->nodes[1].action.seat, "damasco");
	unit_games_free(&gs);
	hg_diags_free(&d);
}
END_TEST

START_TEST(variations_nest)
{
	hg_diags d;
	hg_diags_init(&d);
	unit_games gs;
	parse(HEAD "[Result \"*\"]\n\n1. P1: a (P1: b (P1: c (P1: d) P1: e) {x}) "
	      "(2. P1: f) P2: g\n*\n", &d, &gs);
	ck_assert_uint_eq(d.n, 0);
	const hg_line *m = &gs.v[0]->moves;
	ck_assert_uint_eq(m->n, 5);
	const hg_line *v1 = m->nodes[2].variation;
	ck_assert_uint_eq(v1->n, 3);
	const hg_line *v2 = v1->nodes[1].variation;
	ck_assert_uint_eq(v2->n, 3);
	ck_assert_str_eq(v2->nodes[1].variation->nodes[0].action.text, "d");
	ck_assert_str_eq(v2->nodes[2].action.text, "e");
	ck_assert_str_eq(v1->nodes[2].comment, "x");
	ck_assert_uint_eq(m->nodes[3].variation->nodes[0].number, 2);
	/* an empty variation is syntax, not an error */
	unit_games_free(&gs);
	parse(HEAD "[Result \"*\"]\n\nP1: a ()\n*\n", &d, &gs);
	ck_assert_uint_eq(d.n, 0);
	ck_assert_uint_eq(gs.v[0]->moves.nodes[1].variation->n, 0);
	unit_games_free(&gs);
	hg_diags_free(&d);
}
END_TEST

START_TEST(comments_everywhere)
{
	hg_diags d;
	hg_diags_init(&d);
	unit_games gs;
	const char *src =
		"{before}\n[Game \"kingdoms-of-crusaders\"] ; after Game\n[Date \"2026.11.21\"]\n"
		"{between\n\ntags}\n[Players \"Ana; Ben\"]\n[Result \"*\"]\n{moves start}\n"
		"P1: a {x} ; y\n(P1: b {in} ; var\n) $3 {z}\n* {trailer 1}\n; trailer 2\n\n"
		"; header of 2\n" HEAD "[Result \"*\"]\n\n*\n\n; at the end\n";
	ck_assert_uint_eq(parse(src, &d, &gs), 2);
	ck_assert_uint_eq(d.n, 0);
	hg_game_record *g = gs.v[0];
	ck_assert_uint_eq(g->header.n, 3);
	ck_assert_str_eq(g->header.nodes[0].comment, "before");
	ck_assert_str_eq(g->header.nodes[1].comment, "after Game");
	ck_assert_str_eq(g->header.nodes[2].comment, "between\n\ntags");
	ck_assert_str_eq(g->moves.nodes[0].comment, "moves start");
	ck_assert_str_eq(g->moves.nodes[2].comment, "x");
	ck_assert_str_eq(g->moves.nodes[3].comment, "y");
	const hg_line *v = g->moves.nodes[4].variation;
	ck_assert_str_eq(v->nodes[1].comment, "in");
	ck_assert_str_eq(v->nodes[2].comment, "var");
	ck_assert_int_eq(v->nodes[2].line_comment, 1);
	ck_assert_uint_eq(g->trailer.n, 2);
	ck_assert_str_eq(g->trailer.nodes[0].comment, "trailer 1");
	ck_assert_str_eq(g->trailer.nodes[1].comment, "trailer 2");
	/* after a blank line: the next game's header; at the end: the trailer */
	hg_game_record *g2 = gs.v[1];
	ck_assert_uint_eq(g2->header.n, 1);
	ck_assert_str_eq(g2->header.nodes[0].comment, "header of 2");
	ck_assert_uint_eq(g2->pos.line, 16);
	ck_assert_ptr_eq(g2->header.nodes[0].pos.file, g2->file);
	ck_assert_uint_eq(g2->trailer.n, 1);
	ck_assert_str_eq(g2->trailer.nodes[0].comment, "at the end");
	ck_assert_ptr_eq(g2->trailer.nodes[0].pos.file, g2->file);
	unit_games_free(&gs);
	hg_diags_free(&d);
}
END_TEST

START_TEST(termination_markers)
{
	hg_diags d;
	hg_diags_init(&d);
	unit_games gs;
	parse(HEAD "[Result \"*\"]\n\nP1: a\n*\n\n" HEAD "[Result \"*\"]\n\n\"*\"\n\n"
	      HEAD "[Result \" Ana \\\"the\\\" 2nd \"]\n\n\"Ana \\\"the\\\" 2nd\"\n", &d, &gs);
	ck_assert_uint_eq(gs.n, 3);
	ck_assert_uint_eq(d.n, 0);
	ck_assert_str_eq(gs.v[0]->result, "*");
	ck_assert_uint_eq(gs.v[0]->result_pos.line, 7);
	ck_assert_str_eq(gs.v[1]->result, "*");
	ck_assert_str_eq(gs.v[2]->result, "Ana \"the\" 2nd");
	unit_games_free(&gs);
	hg_diags_free(&d);
}
END_TEST

START_TEST(dates)
{
	static const char *const good[] = {
		"2026.11.21", "????.??.??", "2026.??.??", "????.02.29", "2024.02.29",
		"2000.02.29", "2026.12.31", "2026.??.31", "0001.01.01",
	};
	static const char *const bad[] = {
		"21-11-2026", "2026.13.01", "2026.00.10", "2026.11.00", "2026.02.29",
		"1900.02.29", "2026.04.31", "2026.11.123", "20?6.11.21", "2026.11.21 ",
		"", "2026.1?.01", "2026.11.32", "2026.5-1", "2026.2.30", "26.5.1",
		"2026..1", "2026.5.1.",
	};
	for (size_t i = 0; i < HG_ARRAY_LEN(good) + HG_ARRAY_LEN(bad); i++) {
		int ok = i < HG_ARRAY_LEN(good);
		const char *date = ok ? good[i] : bad[i - HG_ARRAY_LEN(good)];
		hg_buf src;
		hg_buf_init(&src);
		hg_buf_printf(&src, "[Game \"g\"]\n[Date \"%s\"]\n[Players \"a\"]\n[Result \"*\"]\n*\n",
			      date);
		hg_diags d;
		hg_diags_init(&d);
		unit_games gs;
		parse(src.data, &d, &gs);
		char *c = codes(&d);
		ck_assert_msg(strcmp(c, ok ? "" : "2:7 hgn.bad-date\n") == 0, "'%s': %s", date, c);
		free(c);
		unit_games_free(&gs);
		hg_diags_free(&d);
		hg_buf_free(&src);
	}
}
END_TEST

/* A small slip in a Date's form is a warning naming the canonical form;
 * the game is kept (issue 27). */
START_TEST(date_slips)
{
	static const struct {
		const char *date, *canon;
	} slips[] = {
		{ "2026.5.1", "2026.05.01" }, { "2026-05-01", "2026.05.01" },
		{ "2026/5/1", "2026.05.01" }, { "2026.11.2", "2026.11.02" },
		{ "2024-2-29", "2024.02.29" }, { "2026.?.1", "2026.??.01" },
	};
	for (size_t i = 0; i < HG_ARRAY_LEN(slips); i++) {
		hg_buf src;
		hg_buf_init(&src);
		hg_buf_printf(&src, "[Game \"g\"]\n[Date \"%s\"]\n[Players \"a\"]\n[Result \"*\"]\n*\n",
			      slips[i].date);
		hg_diags d;
		hg_diags_init(&d);
		unit_games gs;
		parse(src.data, &d, &gs);
		char *c = codes(&d);
		ck_assert_msg(strcmp(c, "2:7 hgn.date-form\n") == 0, "'%s': %s", slips[i].date, c);
		ck_assert_int_eq(d.v[0].severity, HG_WARNING);
		ck_assert_uint_eq(d.v[0].nnotes, 1);
		ck_assert_msg(strstr(d.v[0].notes[0], slips[i].canon) != NULL, "'%s': %s",
			      slips[i].date, d.v[0].notes[0]);
		ck_assert_uint_eq(gs.n, 1);
		free(c);
		unit_games_free(&gs);
		hg_diags_free(&d);
		hg_buf_free(&src);
	}
}
END_TEST

/* Each diagnostic code, from the smallest input that shows it. */
static const struct {
	const char *src;
	const char *want;	/* "line:col code" lines */
	int limit;		/* lowered limits (see below) */
} code_cases[] = {
	{ HEAD "[Result \"*\"]\nP1: a \xff b\n*\n", "5:7 hgn.invalid-utf8\n", 0 },
	{ HEAD "[Result \"*\"]\n\\\n*\n", "5:1 hgn.unexpected-char\n", 0 },
	{ HEAD "[Result \"*\"]\n[Event \"x\n*\n", "5:8 hgn.unterminated-string\n", 0 },
	{ HEAD "[Result \"*\"]\n[Event \"\\x\"]\n*\n", "5:9 hgn.bad-escape\n", 0 },
	{ HEAD "[Result \"*\"]\n* {x", "5:3 hgn.unterminated-comment\n", 0 },
	{ HEAD "[Result \"*\"]\nP1: a!!!\n*\n", "5:6 hgn.bad-glyph\n", 0 },
	{ HEAD "[Result \"*\"]\nP1: a !\n*\n", "5:7 hgn.detached-glyph\n", 0 },
	{ HEAD "[Result \"*\"]\nP1: a $256\n*\n", "5:7 hgn.bad-nag\n", 0 },
	{ HEAD "[Result \"*\"]\n4294967296. P1: a\n*\n", "5:1 hgn.bad-move-number\n", 0 },
	{ HEAD "[Result \"*\"]\nP1: abcdefghijklmnopqrstuvwxyz\n*\n", "5:5 hgn.too-long\n", 1 },
	{ HEAD "[Result \"*\"]\nP1: a b c d e f g h i j k l m n o p q r s t u v w x y z 1 2 3 4 5\n*\n",
	  "5:41 hgn.line-too-long\n", 1 },
	{ HEAD "[Result \"*\"]\n" "P1: a b c d e f g h i j k l m n o p q r s t u v w x y z\n"
	  "P1: a b c d e f g h i j k l m n o p q r s t u v w x y z\n"
	  "P1: a b c d e f g h i j k l m n o p q r s t u v w x y z\n*\n\n" HEAD "[Result \"*\"]\n*\n",
	  "7:4 hgn.game-too-long\n", 2 },
	{ HEAD "[Result \"*\"]\n\\ \\ \\ \\\n*\n",
	  "5:1 hgn.unexpected-char\n5:3 hgn.unexpected-char\n5:5 hgn.unexpected-char\n"
	  "5:7 hgn.too-many-errors\n", 1 },
	{ HEAD "[Result \"*\"]\nP1: a P1: b P1: c P1: d\n*\n", "5:19 hgn.too-many-actions\n", 1 },
	{ HEAD "[Result \"*\"]\nP1: a ((((P1: b))))\n*\n", "5:10 hgn.too-deep\n", 1 },
	/* the element limit: move numbers, NAGs, variations and comments */
	{ HEAD "[Result \"*\"]\n1. P1: a $1 $2 () () {c} 2. P1: b\n*\n",
	  "5:26 hgn.too-many-elements\n", 1 },
	/* a control character in a comment or a string: once per token */
	{ HEAD "[Result \"*\"]\n{a\x1b b\x1b}\n; c\x7f\x7f\n*\n",
	  "5:3 hgn.unexpected-char\n6:4 hgn.unexpected-char\n", 0 },
	{ HEAD "[Event \"\x07\x07\"]\n[Result \"*\"]\n\"x\xc2\x9b\"\n",
	  "4:9 hgn.unexpected-char\n6:3 hgn.unexpected-char\n", 0 },
	{ HEAD "[Result \"*\"]\n{NEL \xc2\x85 and tab \t are blanks}\n*\n", "", 0 },
	/* the tag limit: reported once, at the first tag over it; a repeat
	 * after it is still a repeat */
	{ HEAD "[Result \"*\"]\n[Event \"e\"]\n[Site \"s\"]\n[Round \"1\"]\n[Date \"x\"]\n*\n",
	  "6:2 hgn.too-many-tags\n8:2 hgn.duplicate-tag\n", 1 },
	{ HEAD "[Result \"*\"]\n1. draw c12\n*\n", "5:4 hgn.missing-seat\n", 0 },
	{ HEAD "[Result \"*\"]\n: draw c12\n*\n", "5:1 hgn.stray-colon\n", 0 },
	{ HEAD "[Result \"*\"]\nP1: P2: x\n*\n", "5:1 hgn.empty-action\n", 0 },
	{ HEAD "[Result \"*\"]\nP1: x ]\n*\n", "5:7 hgn.unexpected-token\n", 0 },
	{ HEAD "[Result \"*\"]\nP1: x [Event \"y\"] P2: z\n*\n", "5:7 hgn.unexpected-token\n", 0 },
	{ HEAD "[Result \"*\"]\nP1: x)\n*\n", "5:6 hgn.unbalanced-paren\n", 0 },
	{ HEAD "[Result \"*\"]\nP1: x (P1: y\n*\n", "5:7 hgn.unterminated-variation\n", 0 },
	{ HEAD "[Result \"*\"]\nP1: x (P1: y (P1: z)\n", "5:7 hgn.unterminated-variation\n"
	  "5:21 hgn.missing-termination\n", 0 },
	{ HEAD "[Result \"*\"\n*\n", "4:12 hgn.bad-tag\n", 0 },
	{ HEAD "[Result]\n*\n", "4:8 hgn.bad-tag\n", 0 },
	{ HEAD "[Result\n\"*\"]\n*\n", "4:8 hgn.bad-tag\n5:4 hgn.after-termination\n", 0 },
	{ HEAD "[\n[Result \"*\"]\n*\n", "4:2 hgn.bad-tag\n", 0 },
	{ HEAD "[1st \"x\"] [Result \"*\"]\n*\n", "4:2 hgn.bad-tag\n", 0 },
	{ HEAD "[Result \"*\"]\n[Date \"2026.11.21\"]\n*\n", "5:2 hgn.duplicate-tag\n", 0 },
	{ "[Game \"g\"]\n[Players \"a\"]\n*\n", "1:1 hgn.missing-tag\n1:1 hgn.missing-tag\n", 0 },
	{ "[Game \"g\"]\n[Date \"????.??.??\"]\n[Result \"*\"]\n*\n", "1:1 hgn.missing-tag\n", 0 },
	{ "P1: a\n*\n", "1:1 hgn.missing-tag\n", 0 },
	{ HEAD "[Result \"*\"]\n[Seat2 \"b\"]\n*\n", "5:8 hgn.bad-players\n", 0 },
	{ "[Game \"g\"]\n[Date \"????.??.??\"]\n[Players \"a;\"]\n[Result \"*\"]\n*\n",
	  "3:10 hgn.bad-players\n", 0 },
	{ "[Game \"g\"]\n[Date \"????.??.??\"]\n[Seat1 \" \"]\n[Result \"*\"]\n*\n",
	  "3:8 hgn.bad-players\n", 0 },
	{ HEAD "[Result \"P1\"]\nP1: a\n\"P2\"\n", "6:1 hgn.result-mismatch\n", 0 },
	{ HEAD "[Result \"P1\"]\nP1: a\n", "5:6 hgn.missing-termination\n", 0 },
	{ HEAD "[Result \"*\"]\n", "4:13 hgn.missing-termination\n", 0 },
	{ HEAD "[Result \"*\"]\n* P1: a\n", "5:3 hgn.after-termination\n", 0 },
	{ HEAD "[Result \"*\"]\n*\n" HEAD "[Result \"*\"]\n*\n", "6:1 hgn.glued-game\n", 0 },
	{ HEAD "[Result \"*\"]\nP1: a\n" HEAD "[Result \"*\"]\n*\n",
	  "5:6 hgn.missing-termination\n6:1 hgn.glued-game\n", 0 },
	{ "; only\n{comments}\n", "1:1 hgn.no-game\n", 0 },
	{ HEAD "[Result \"*\"]\n*\n\n\n", "", 0 },
	{ "", "", 0 },
};

START_TEST(every_code)
{
	int i = _i;
	hg_limits lim;
	hg_limits_default(&lim);
	if (code_cases[i].limit == 1) {
		lim.token = 24;
		lim.line = 40;
		lim.errors = 3;
		lim.actions = 3;
		lim.nesting = 3;
		lim.tags = 5;
		lim.elements = 6;
	} else if (code_cases[i].limit == 2) {
		lim.game = 200;
	}
	hg_diags d;
	hg_diags_init(&d);
	unit_games gs;
	parse_n(code_cases[i].src, strlen(code_cases[i].src), &lim, &d, &gs);
	char *c = codes(&d);
	ck_assert_msg(strcmp(c, code_cases[i].want) == 0, "case %d:\n%s\nwant:\n%s\ngot:\n%s", i,
		      code_cases[i].src, code_cases[i].want, c);
	free(c);
	unit_games_free(&gs);
	hg_diags_free(&d);
}
END_TEST

START_TEST(the_game_limit_skips_to_the_next_game)
{
	/* the case above, looked at closer: the first game is returned cut short,
	 * the second is read whole */
	hg_limits lim;
	hg_limits_default(&lim);
	lim.game = 200;
	const char *src = code_cases[11].src;
	hg_diags d;
	hg_diags_init(&d);
	unit_games gs;
	ck_assert_uint_eq(parse_n(src, strlen(src), &lim, &d, &gs), 2);
	ck_assert_ptr_null(gs.v[0]->result);
	ck_assert_str_eq(gs.v[1]->result, "*");
	ck_assert_uint_eq(gs.v[1]->ntags, 4);
	unit_games_free(&gs);
	hg_diags_free(&d);
}
END_TEST

START_TEST(recovery_reports_every_error)
{
	const char *src =
		HEAD "[Result \"*\"]\n"
		"1. P1: draw c12 P1: place c12 3 : x P2: draw c07 P2: place c07 1!!!\n"
		"2. draw c22 P1: place c22 3 $300 P2: draw ? P2: place c09 2)\n"
		"3. P1: draw c30 P1: place c30 \\ 4 {fine} P2: P1: ok\n"
		"*\n";
	hg_diags d;
	hg_diags_init(&d);
	unit_games gs;
	parse(src, &d, &gs);
	char *c = codes(&d);
	ck_assert_str_eq(c, "5:33 hgn.stray-colon\n5:65 hgn.bad-glyph\n6:4 hgn.missing-seat\n"
			 "6:29 hgn.bad-nag\n6:60 hgn.unbalanced-paren\n7:31 hgn.unexpected-char\n"
			 "7:42 hgn.empty-action\n");
	free(c);
	/* what parsed is kept: the game is returned for the caller to count */
	ck_assert_uint_eq(gs.n, 1);
	const hg_line *m = &gs.v[0]->moves;
	hg_buf all;
	hg_buf_init(&all);
	for (size_t i = 0; i < m->n; i++)
		if (m->nodes[i].kind == HG_NODE_ACTION)
			hg_buf_printf(&all, "%s: %s|", m->nodes[i].action.seat, m->nodes[i].action.text);
	ck_assert_str_eq(all.data, "P1: draw c12|P1: place c12 3|P2: draw c07|P1: place c22 3|"
			 "P2: draw ?|P2: place c09 2|P1: draw c30|P1: place c30 4|P1: ok|");
	ck_assert_str_eq(gs.v[0]->result, "*");
	hg_buf_free(&all);
	unit_games_free(&gs);
	hg_diags_free(&d);
}
END_TEST

START_TEST(errors_in_many_games)
{
	/* every game's errors, and each game still read */
	const char *src =
		HEAD "[Result \"*\"]\nP1: a)\n*\n\n"
		"[Game \"g\"]\n[Date \"01-01-2026\"]\n[Players \"a\"]\n[Result \"*\"]\nP1: b\n*\n\n"
		HEAD "[Result \"*\"]\nP1: c $999\n*\n";
	hg_diags d;
	hg_diags_init(&d);
	unit_games gs;
	ck_assert_uint_eq(parse(src, &d, &gs), 3);
	char *c = codes(&d);
	ck_assert_str_eq(c, "5:6 hgn.unbalanced-paren\n9:7 hgn.bad-date\n19:7 hgn.bad-nag\n");
	free(c);
	unit_games_free(&gs);
	hg_diags_free(&d);
}
END_TEST

START_TEST(each_call_reports_its_own_game)
{
	/* an error in the second game's header comment is found while finishing
	 * the first game, and the third game's glue while finishing the second,
	 * yet each belongs to the game after */
	const char *src =
		HEAD "[Result \"*\"]\n*\n{trailer}\n\n{bad \xff}\n" HEAD "[Result \"*\"]\n*\n"
		HEAD "[Result \"*\"]\nP1: a\n*\n";
	hg_parser *p = hg_parser_open_mem("t.hgn", src, strlen(src));
	hg_diags d;
	hg_diags_init(&d);
	hg_game_record *g;
	ck_assert_int_eq(hg_parser_next(p, &g, &d), 1);
	ck_assert_uint_eq(d.n, 0);
	ck_assert_uint_eq(g->trailer.n, 1);
	hg_record_free(g);
	ck_assert_int_eq(hg_parser_next(p, &g, &d), 1);
	char *c = codes(&d);
	ck_assert_str_eq(c, "8:6 hgn.invalid-utf8\n");
	free(c);
	/* a Latin-1 byte (before ASCII) is read as Latin-1, after its error */
	ck_assert_str_eq(g->header.nodes[0].comment, "bad \xc3\xbf");
	hg_record_free(g);
	hg_diags_clear(&d);
	ck_assert_int_eq(hg_parser_next(p, &g, &d), 1);
	c = codes(&d);
	ck_assert_str_eq(c, "14:1 hgn.glued-game\n");
	free(c);
	ck_assert_uint_eq(g->moves.n, 1);
	hg_record_free(g);
	ck_assert_int_eq(hg_parser_next(p, &g, &d), 0);
	ck_assert_ptr_null(g);
	ck_assert_int_eq(hg_parser_next(p, &g, &d), 0);
	hg_parser_close(p);
	hg_diags_free(&d);
}
END_TEST

START_TEST(multi_game_boundaries)
{
	const char *src =
		HEAD "[Result \"*\"]\n*\n\n\n\n"	/* several blank lines */
		HEAD "[Result \"*\"]\nP1: a\n\n" HEAD "[Result \"*\"]\n*\n\n"	/* no termination */
		"P1: tagless\n*\n";	/* a game without tags after a blank line */
	hg_diags d;
	hg_diags_init(&d);
	unit_games gs;
	ck_assert_uint_eq(parse(src, &d, &gs), 4);
	char *c = codes(&d);
	ck_assert_str_eq(c, "13:6 hgn.missing-termination\n21:1 hgn.missing-tag\n");
	free(c);
	ck_assert_uint_eq(gs.v[1]->pos.line, 9);
	ck_assert_ptr_null(gs.v[1]->result);
	ck_assert_uint_eq(gs.v[2]->pos.line, 15);
	ck_assert_str_eq(gs.v[3]->moves.nodes[0].action.text, "tagless");
	unit_games_free(&gs);
	hg_diags_free(&d);
}
END_TEST

/* Many games written to a file. */
static char *many_games(size_t count, size_t *len)
{
	hg_buf b;
	hg_buf_init(&b);
	for (size_t i = 0; i < count; i++) {
		hg_buf_printf(&b, "%s" HEAD "[Round \"%zu\"]\n[Result \"*\"]\n\n", i ? "\n" : "", i);
		for (int t = 1; t <= 20; t++)
			hg_buf_printf(&b, "%d. P1: draw c%02zu P1: plàce c%02zu %d {ñ %d} P2: draw ?!\n",
				      t, (i + t) % 60, (i * t) % 60, t % 5 + 1, t);
		hg_buf_puts(&b, "*\n");
	}
	*len = b.len;
	return hg_buf_steal(&b);
}

static void check_games_equal(const unit_games *a, const unit_games *b)
{
	ck_assert_uint_eq(a->n, b->n);
	hg_buf wa, wb;
	hg_buf_init(&wa);
	hg_buf_init(&wb);
	for (size_t i = 0; i < a->n; i++) {
		hg_write_hgn(a->v[i], &wa);
		hg_write_hgn(b->v[i], &wb);
		ck_assert_uint_eq(a->v[i]->pos.line, b->v[i]->pos.line);
	}
	ck_assert_int_eq(strcmp(wa.data, wb.data), 0);
	hg_buf_free(&wa);
	hg_buf_free(&wb);
}

START_TEST(streams_from_a_file)
{
	size_t len;
	char *text = many_games(400, &len);
	ck_assert_uint_gt(len, 300000);	/* several windows of the stream reader */
	char path[] = "/tmp/herald-test-XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, len), (ssize_t)len);
	close(fd);

	hg_diags d;
	hg_diags_init(&d);
	unit_games from_mem, from_file;
	parse_n(text, len, NULL, &d, &from_mem);
	hg_parser *p = hg_parser_open_file(path, &d);
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(parse_with(p, &d, &from_file), 0);
	hg_parser_close(p);
	ck_assert_uint_eq(d.n, 0);
	ck_assert_uint_eq(from_file.n, 400);
	ck_assert_str_eq(from_file.v[0]->file, path);
	check_games_equal(&from_mem, &from_file);
	unit_games_free(&from_file);

	/* "-" is standard input */
	ck_assert_ptr_nonnull(freopen(path, "rb", stdin));
	p = hg_parser_open_file("-", &d);
	ck_assert_int_eq(parse_with(p, &d, &from_file), 0);
	hg_parser_close(p);
	ck_assert_str_eq(from_file.v[0]->file, "-");
	check_games_equal(&from_mem, &from_file);
	unit_games_free(&from_file);
	unit_games_free(&from_mem);
	unlink(path);
	free(text);
	hg_diags_free(&d);
}
END_TEST

START_TEST(io_errors)
{
	hg_diags d;
	hg_diags_init(&d);
	ck_assert_ptr_null(hg_parser_open_file("/nonexistent/x.hgn", &d));
	ck_assert_uint_eq(d.n, 1);
	ck_assert_str_eq(d.v[0].code, "hgn.io-error");
	ck_assert_str_eq(d.v[0].file, "/nonexistent/x.hgn");
	hg_diags_clear(&d);
	/* a directory opens but does not read */
	hg_parser *p = hg_parser_open_file("/", &d);
	if (p) {
		hg_game_record *g;
		ck_assert_int_eq(hg_parser_next(p, &g, &d), -1);
		ck_assert_ptr_null(g);
		ck_assert_str_eq(d.v[d.n - 1].code, "hgn.io-error");
		hg_parser_close(p);
	}
	hg_diags_free(&d);
}
END_TEST

START_TEST(a_caller_may_pass_no_diagnostics_list)
{
	const char *src = "[Game \"g\"]\nP1: a!!! :\n*\n\n" HEAD "[Result \"*\"]\nP1: b\n*\n";
	hg_parser *p = hg_parser_open_mem("t.hgn", src, strlen(src));
	hg_game_record *g;
	ck_assert_int_eq(hg_parser_next(p, &g, NULL), 1);
	hg_record_free(g);
	ck_assert_int_eq(hg_parser_next(p, &g, NULL), 1);
	ck_assert_str_eq(g->moves.nodes[0].action.text, "b");
	hg_record_free(g);
	ck_assert_int_eq(hg_parser_next(p, &g, NULL), 0);
	hg_parser_close(p);
}
END_TEST

/* ------------------------------------------------------------------------
 * The lexer's plain path (bodies gathered in bulk) against the careful one
 * ------------------------------------------------------------------------ */

static void dump_line(hg_buf *b, const hg_line *l, int depth)
{
	for (size_t i = 0; i < l->n; i++) {
		const hg_node *n = &l->nodes[i];
		hg_buf_printf(b, "%*s%d %u:%u", depth * 2, "", (int)n->kind, n->pos.line,
			      n->pos.col);
		switch (n->kind) {
		case HG_NODE_ACTION: {
			const hg_action_text *t = &n->action;
			hg_buf_printf(b, " %s@%u:%u [%s] %u:%u glyph %s ascii %d", t->seat,
				      t->seat_pos.line, t->seat_pos.col, t->text, t->pos.line,
				      t->pos.col, n->glyph ? n->glyph : "-", t->ascii);
			ck_assert_int_eq(t->ascii, hg_is_ascii(t->text, strlen(t->text)));
			ck_assert_uint_eq(t->len, strlen(t->text));
			ck_assert_uint_eq(t->seat_len, strlen(t->seat));
			for (size_t k = 0; k < t->ntoks; k++) {
				ck_assert_uint_eq(t->toks[k].len, strlen(t->toks[k].text));
				hg_buf_printf(b, " %d'%s'%u:%u+%zu", (int)t->toks[k].kind,
					      t->toks[k].text, t->toks[k].pos.line,
					      t->toks[k].pos.col, t->toks[k].off);
			}
			break;
		}
		case HG_NODE_COMMENT:
			hg_buf_printf(b, " {%s}", n->comment);
			break;
		case HG_NODE_VARIATION:
			hg_buf_puts(b, "\n");
			dump_line(b, n->variation, depth + 1);
			break;
		default:
			hg_buf_printf(b, " %u", n->number);
			break;
		}
		hg_buf_puts(b, "\n");
	}
}

/* Every record and diagnostic parsed from `text`, by the careful path
 * (careful 1), the plain path (0) or the plain path with its runs classed
 * by SSE2 only (2), from memory or (from_file) from a file, read through
 * the lexer's window. */
static char *parse_dump_from(const char *text, size_t len, int careful, const hg_limits *lim,
			     int from_file)
{
	hg_diags d;
	hg_diags_init(&d);
	unit_games gs;
	/* from a block of exactly len bytes (no NUL after it), so that the
	 * sanitizer build sees any read past the end of the input */
	char *exact = hg_xmalloc(len ? len : 1);
	memcpy(exact, text, len);
	/* one name for the process: it is in the diagnostics compared */
	char path[64];
	snprintf(path, sizeof path, "/tmp/herald-test-parser-%ld.hgn", (long)getpid());
	hg_parser *p;
	if (from_file) {
		int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		ck_assert_int_ge(fd, 0);
		ck_assert_int_eq(write(fd, text, len), (ssize_t)len);
		close(fd);
		p = hg_parser_open_file(path, &d);
		ck_assert_ptr_nonnull(p);
	} else {
		p = hg_parser_open_mem("t.hgn", exact, len);
	}
	/* careful 1: the careful path only; 2: the plain path, its runs
	 * classed with SSE2 only */
	hg_parser_set_careful_only(p, careful == 1);
	hg_parser_set_plain_ssse3(p, careful != 2);
	if (lim)
		hg_parser_set_limits(p, lim);
	ck_assert_int_eq(parse_with(p, &d, &gs), 0);
	hg_parser_close(p);
	if (from_file)
		unlink(path);
	free(exact);
	hg_buf b;
	hg_buf_init(&b);
	for (size_t i = 0; i < gs.n; i++) {
		hg_buf_printf(&b, "game %zu result %s\n", i,
			      gs.v[i]->result ? gs.v[i]->result : "-");
		for (size_t k = 0; k < gs.v[i]->ntags; k++) {
			const hg_tag *tag = &gs.v[i]->tags[k];
			hg_buf_printf(&b, "[%s \"%s\"] %u:%u\n", tag->name, tag->value, tag->pos.line,
				      tag->pos.col);
		}
		dump_line(&b, &gs.v[i]->header, 0);
		dump_line(&b, &gs.v[i]->moves, 0);
	}
	char *diags = diag_text(&d);
	hg_buf_puts(&b, diags);
	free(diags);
	unit_games_free(&gs);
	hg_diags_free(&d);
	return hg_buf_steal(&b);
}

static char *parse_dump(const char *text, size_t len, int careful, const hg_limits *lim)
{
	return parse_dump_from(text, len, careful, lim, 0);
}

/* Asserts that the plain path reads `text` as the careful path does
 * (`what` names the case where it does not); returns the length of the
 * careful path's reading. */
static size_t same_reading(const char *text, size_t len, const hg_limits *lim, int from_file,
			   const char *what)
{
	char *careful = parse_dump_from(text, len, 1, lim, from_file);
	for (int sse2 = 0; sse2 < 2; sse2++) {
		char *plain = parse_dump_from(text, len, sse2 ? 2 : 0, lim, from_file);
		size_t at = 0;
		while (careful[at] && careful[at] == plain[at])
			at++;
		ck_assert_msg(careful[at] == plain[at],
			      "%s: the plain path%s differs at '%.80s' (careful: '%.80s')", what,
			      sse2 ? " (SSE2 only)" : "", plain + at, careful + at);
		free(plain);
	}
	size_t n = strlen(careful);
	free(careful);
	return n;
}

/* Where the parser takes a seat prefix or a move number straight from the
 * lexer after a body, and where it must not. */
START_TEST(taken_seats_and_move_numbers_change_nothing)
{
	static const char *const text[] = {
		HEAD "\n1. P1: a 2. P2:",
		HEAD "\n1. P1: a 2. P2: ",
		HEAD "\n1. P1: a 2. dra",	/* fuzz-hgn: the input ends in a word */
		HEAD "\n1. P1: a P2",
		HEAD "\n1. P1: a 2. P2",
		HEAD "\n1. P1: a P2: \n",
		HEAD "\n1. P1: a 2. P2: b",
		HEAD "\n1. P1: a 2. 3. P2: b *",
		HEAD "\n1. P1: a 2.\nP2: b c 3... P1: d ! *",
		HEAD "\n1. P1: a 2.5 b P1: c *",
		HEAD "\n1. P1: a 12345678901. P2: b *",
		HEAD "\n1. P1: a 2. b P2: c *",
		HEAD "\n1. P1: a 2. P2: P1: c *",
		HEAD "\n1. P1: a 2.P2: c 3.. P1: d\n\n4. P2: e *",
		HEAD "\n1. P1: a P2: b P1:c P2: d: e *",
		HEAD "\n1. P1: a 2. {c} P2: b 3. ; x\nP1: c *",
		/* a '[' after a seat prefix the lexer took in a run: on a
		 * line that has a token already, it begins no game */
		HEAD "\n1. P1: a\nP2: [Date \"x\"]\nP1: b *",
		HEAD "\n1. P1: a b P2: c\nP1: [Date \"x\"]\n*",
		HEAD "\n1. P1: a P2:\n[Date \"x\"]\n*",
	};
	for (size_t i = 0; i < HG_ARRAY_LEN(text); i++) {
		char *careful = parse_dump(text[i], strlen(text[i]), 1, NULL);
		char *plain = parse_dump(text[i], strlen(text[i]), 0, NULL);
		ck_assert_msg(strcmp(careful, plain) == 0, "text %zu: plain\n%s\ncareful\n%s", i,
			      plain, careful);
		free(careful);
		free(plain);
	}
}
END_TEST

/* After a seat prefix the lexer shifts the masks of the run before it,
 * the bytes past them unknown: tokens of digits, words and punctuation
 * ending right at that edge, after seats of every length, on lines that
 * then end or go on. */
START_TEST(runs_after_seats_of_every_length_change_nothing)
{
	static const char *const body[] = {
		"7 8 9 1 2 3 4 5 6 7 8 9 1 2 3 4 5 6 7 8 9 1 2 3 4 5 6 7 8 9 1 2 3 4 5 6 7",
		"12 3 45 6 78 9 12 3 45 6 78 9 12 3 45 6 78 9 12 3 45 6 78 9 12 3 45 6",
		"a 1 / 2 = 3 vs 4 b 5 / 6 = 7 vs 8 c 9 / 1 = 2 vs 3 d 4 / 5 = 6 vs 7 e",
		"tropa-3 7 tropa-2 88 x 999 y 1 z 22 w 333 v 4 u 55 t 666 s 7 r 88 q 999",
	};
	for (size_t k = 0; k < HG_ARRAY_LEN(body); k++) {
		hg_buf b;
		hg_buf_init(&b);
		hg_buf_puts(&b, HEAD "[Result \"*\"]\n\n");
		for (int seat = 1; seat <= 30; seat++) {
			for (int prefix = 0; prefix < 2; prefix++) {
				/* a seat prefix that ends the run before, or one
				 * the line begins with */
				hg_buf_puts(&b, prefix ? "P1: w " : "");
				for (int c = 0; c < seat; c++)
					hg_buf_putc(&b, (char)('a' + c % 26));
				hg_buf_puts(&b, ": ");
				hg_buf_putn(&b, body[k], strlen(body[k]) - (size_t)(seat % 7));
				hg_buf_puts(&b, seat % 3 ? "\n" : " P2: z\n");
			}
		}
		char what[32];
		snprintf(what, sizeof what, "body %zu", k);
		same_reading(b.data, b.len, NULL, 0, what);
		hg_buf_free(&b);
	}
}
END_TEST

/* The parser takes a plain tag pair whole from the lexer, its three tokens
 * never made; every other tag pair it reads token by token.  Both read
 * each of these as the careful path does: names it rejects, blanks and
 * tabs, values it cannot take whole, pairs cut by a line's end, limits
 * reached within the pair, and what follows the ']'. */
START_TEST(tag_pairs_taken_whole_change_nothing)
{
	static const char *const pair[] = {
		"[Date \"2026.11.21\"]", "[Round \"\"]", "[Event    \"x y\"]", "[\tEvent\t\"a\"\t]",
		"[Event\"glued\"]", "[ Event \"lead\" ]", "[E \"1\"]", "[E_2 \"1\"]", "[e \"1\"]",
		"[2E \"1\"]", "[E-2 \"1\"]", "[E.2 \"1\"]", "[E: \"1\"]", "[E \"a\\\"b\"]",
		"[E \"a\\\\\"]", "[E \"é\"]", "[É \"x\"]", "[E \"open]", "[E \"x\"", "[E \"x\" x]",
		"[E]", "[ ]", "[\"x\"]", "[E \"x\"]]", "[E \"x\"] [F \"y\"]", "[E \"x\"] ; c",
		"[E \"x\"] {c}", "[E \"x\"]*", "[E\n\"x\"]", "[E \"x\"\n]", "[E \"tab\there\"]",
		"[E \"x\"] P1: a", "[Event \"x\"]\r", "[Event \"0123456789abcdefghij\"]",
		"[EventEventEventEventEvent \"x\"]", "[Date \"2026.13.45\"]",
		/* values about the 16 bytes a string's end is looked for in */
		"[E \"0123456789abcdef\\\"x\"]", "[E \"0123456789abcde\x7f\"]",
		"[E \"0123456789abcdefghé\"]", "[E \"0123456789abcdef0123456789abcdef\"]",
		"[E \"0123456789abcdef0123456789abcde\x01\"]",
	};
	hg_prng r;
	hg_prng_seed(&r, "tag pairs");
	hg_limits small;
	hg_limits_default(&small);
	small.token = 12;
	small.line = 40;
	for (int i = 0; i < 300; i++) {
		hg_buf b;
		hg_buf_init(&b);
		hg_buf_puts(&b, "[Game \"kingdoms-of-crusaders\"]\n");
		unsigned n = 1 + hg_prng_below(&r, 8);
		for (unsigned k = 0; k < n; k++) {
			hg_buf_puts(&b, pair[hg_prng_below(&r, HG_ARRAY_LEN(pair))]);
			hg_buf_puts(&b, hg_prng_below(&r, 5) ? "\n" : " ");
		}
		hg_buf_puts(&b, "\nP1: a *\n");
		const hg_limits *lim = i % 4 == 3 ? &small : NULL;
		char what[32];
		snprintf(what, sizeof what, "text %d", i);
		same_reading(b.data, b.len, lim, i % 2, what);
		hg_buf_free(&b);
	}
}
END_TEST

START_TEST(plain_bodies_change_nothing)
{
	static const char *const piece[] = {
		"P1:", "P2:", "ricardo:", "draw", "c12", "tropa-2", "3", "12", "7.", "12...",
		"1.5", "a.2", "3>4", "/", "=", "&", " ", " ", "  ", "\t", "\n", "\r\n",
		"\n\n", "{c}", "; x\n", "!", "?", "?!", "$3", "(", ")", "*", ":", "Antioquía",
		"é", "\xff", "-3", "12:", "abcdefghijklmnopqrstuvwxyz", "\"P1\"\n\n" HEAD "\n",
		/* every word character, the bytes beside their ranges, and
		 * words about the 16 bytes the lexer classes at once */
		"AZaz09_-'#.", "@Z[`z{", "/0:9;", "x\x7f", "y~", "0123456789abcde",
		"0123456789abcdef", "0123456789abcdefg", "1234567890123456789", "12ab", "9_",
		"12.3.", "0.",
		/* tag pairs, whole and in pieces */
		"[", "]", "[Date \"2026.11.21\"]\n", "[Round \"\"]\n", "\"x y\"", "\"a\\\"b\"",
		"\"a\\\\\"", "\"open", "\"\x01\"", "\"tab\there\"", "[Event \"é\"]\n",
	};
	hg_prng r;
	hg_prng_seed(&r, "plain bodies");
	hg_limits small;
	hg_limits_default(&small);
	small.token = 9;
	small.line = 70;
	small.game = 900;
	small.actions = 12;
	for (int i = 0; i < 300; i++) {
		hg_buf b;
		hg_buf_init(&b);
		hg_buf_puts(&b, HEAD "\n");
		size_t pieces = 20 + hg_prng_below(&r, 200);
		for (size_t k = 0; k < pieces; k++) {
			hg_buf_puts(&b, piece[hg_prng_below(&r, HG_ARRAY_LEN(piece))]);
			if (hg_prng_below(&r, 3))
				hg_buf_putc(&b, ' ');
		}
		const hg_limits *lim = i % 3 == 0 ? &small : NULL;
		char what[32];
		snprintf(what, sizeof what, "text %d", i);
		ck_assert_uint_gt(same_reading(b.data, b.len, lim, 0, what), 40);
		hg_buf_free(&b);
	}
}
END_TEST

/* Runs of plain actions, each ended by the next one's seat prefix, are
 * read from the fast scanner's batches (HG_SCAN_BATCH tokens at most) and
 * never past the limit on actions: runs longer than a batch, limits just
 * around it, long tokens that make the room grow within a run, and a file
 * read through the lexer's window (a batch cut at its edge), as the clear
 * path reads them. */
START_TEST(runs_of_plain_actions_change_nothing)
{
	hg_buf b;
	hg_buf_init(&b);
	for (int game = 0; game < 40; game++) {
		hg_buf_puts(&b, HEAD "[Result \"*\"]\n\n");
		for (int i = 0; i < 40 + game * 37; i++) {
			hg_buf_printf(&b, "%s: w%d", i % 3 ? "P1" : "seat-two", i);
			for (int k = 0; k < i % 5; k++)
				hg_buf_puts(&b, " 3 / x");
			if (i % 97 == 50)	/* a long token: the room grows */
				for (int k = 0; k < 3000; k++)
					hg_buf_putc(&b, 'a' + k % 26);
			hg_buf_puts(&b, i % 7 == 6 ? "\n" : " ");
			if (i % 151 == 150)
				hg_buf_puts(&b, "{c} ");
		}
		hg_buf_puts(&b, "*\n\n");
	}
	static const size_t actions[] = { 0, 1, 15, 16, 17, 31, 32, 33, 200 };
	for (size_t i = 0; i < HG_ARRAY_LEN(actions); i++) {
		hg_limits lim;
		hg_limits_default(&lim);
		if (actions[i])
			lim.actions = actions[i];
		for (int from_file = 0; from_file < 2; from_file++) {
			char what[48];
			snprintf(what, sizeof what, "limit %zu, file %d", actions[i], from_file);
			ck_assert_uint_gt(same_reading(b.data, b.len, &lim, from_file, what),
					  actions[i] == 0 ? 500000 : 5000);
		}
	}
	ck_assert_uint_gt(b.len, 3 * 65536);	/* several windows */
	hg_buf_free(&b);
}
END_TEST

/* Lines of many tokens one blank apart, which the lexer copies from the
 * source a run at a time: runs longer than the bytes copied at once,
 * words of the sizes about them and about the 16 bytes classed at once,
 * runs broken by two blanks, a tab or a token with no blank before it,
 * runs that end the input with or without a line feed (read from a block
 * of exactly the input's size), room that runs out within a run, and a
 * file read through the lexer's window; as the careful path reads them,
 * and each token's text its action's at its offset. */
static size_t token_texts_checked(const hg_line *line);

START_TEST(long_runs_of_tokens_change_nothing)
{
	static const char *const word[] = {
		"a", "7", "/", "=", "tropa-3", "0123456789abcde", "0123456789abcdef",
		"0123456789abcdefg", "abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz01",
		"abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz012", "12", "won",
	};
	static const char *const gap[] = { " ", " ", " ", " ", " ", " ", "  ", "\t", "" };
	hg_prng r;
	hg_prng_seed(&r, "long runs");
	for (int i = 0; i < 120; i++) {
		hg_buf b;
		hg_buf_init(&b);
		hg_buf_puts(&b, HEAD "[Result \"*\"]\n\n");
		unsigned lines = 1 + hg_prng_below(&r, 40);
		for (unsigned k = 0; k < lines; k++) {
			hg_buf_printf(&b, "P%u:", k % 2 + 1);
			unsigned n = 1 + hg_prng_below(&r, k % 4 == 3 ? 400 : 40);
			for (unsigned j = 0; j < n; j++) {
				hg_buf_puts(&b, j == 0 ? " " : gap[hg_prng_below(&r, HG_ARRAY_LEN(gap))]);
				hg_buf_puts(&b, word[hg_prng_below(&r, HG_ARRAY_LEN(word))]);
			}
			if (k + 1 < lines || i % 2)
				hg_buf_puts(&b, "\n");
		}
		hg_limits lim;
		hg_limits_default(&lim);
		if (i % 5 == 4)
			lim.token = 16;
		for (int from_file = 0; from_file < 2; from_file++) {
			char what[32];
			snprintf(what, sizeof what, "text %d, file %d", i, from_file);
			same_reading(b.data, b.len, &lim, from_file, what);
		}
		hg_diags d;
		hg_diags_init(&d);
		unit_games gs;
		ck_assert_uint_eq(parse_n(b.data, b.len, NULL, &d, &gs), 1);
		ck_assert_uint_gt(token_texts_checked(&gs.v[0]->moves), lines - 1);
		unit_games_free(&gs);
		hg_diags_free(&d);
		hg_buf_free(&b);
	}
}
END_TEST

/* The lexer reads a run of plain tokens one blank apart from the masks of
 * 64 bytes at once, and ends the run at what it does not hold: each of
 * those, and tokens about the run's 64 bytes long, at every offset from
 * the run's start, with limits that cut lines and tokens inside a run, as
 * the careful path reads them. */
START_TEST(runs_read_at_once_change_nothing)
{
	static const char *const odd[] = {
		"/", "=", ">", "&", ",", "+", "<", "@", "|", "~", "^", "%", ".", "12.", "a.b", "7.5",
		"?", "P1:", "P2:", "x:", "#3", "'", "_a", "-", "é", "tropa-3", "a/b", "//", "=7",
		"7=", ">&", "12", "0", "\"P1\"", "{c}", "!", "(",
	};
	static const char *const gap[] = {
		" ", " ", " ", " ", " ", " ", " ", " ", " ", " ", "  ", "\t", "\r\n", "\n", "",
	};
	hg_prng r;
	hg_prng_seed(&r, "runs read at once");
	for (int i = 0; i < 200; i++) {
		hg_buf b;
		hg_buf_init(&b);
		hg_buf_puts(&b, HEAD "[Result \"*\"]\n\nP1:");
		unsigned pieces = 20 + hg_prng_below(&r, 300);
		for (unsigned k = 0; k < pieces; k++) {
			hg_buf_puts(&b, gap[hg_prng_below(&r, HG_ARRAY_LEN(gap))]);
			unsigned pick = hg_prng_below(&r, 10);
			if (pick == 0) {
				hg_buf_puts(&b, odd[hg_prng_below(&r, HG_ARRAY_LEN(odd))]);
				continue;
			}
			/* a word or a number, mostly short, sometimes about 64 */
			unsigned n = pick < 8 ? 1 + hg_prng_below(&r, 12) : 56 + hg_prng_below(&r, 14);
			int digits = hg_prng_below(&r, 4) == 0;
			for (unsigned c = 0; c < n; c++)
				hg_buf_putc(&b, digits ? (char)('0' + c % 10) : (char)('a' + (c * 7 + k) % 26));
		}
		hg_buf_puts(&b, i % 2 ? " *\n" : "\n");
		hg_limits lim;
		hg_limits_default(&lim);
		switch (i % 5) {
		case 1: lim.line = 70 + hg_prng_below(&r, 60); break;
		case 2: lim.token = 63 + hg_prng_below(&r, 3); break;
		case 3: lim.game = 300 + hg_prng_below(&r, 900); break;
		}
		for (int from_file = 0; from_file < 2; from_file++) {
			char what[48];
			snprintf(what, sizeof what, "text %d, file %d", i, from_file);
			same_reading(b.data, b.len, &lim, from_file, what);
		}
		hg_buf_free(&b);
	}
}
END_TEST

/* The parser gathers a game's tokens in its record's arena, in room sized
 * by the games before it and grown as the game needs: each record has its
 * own, right, tokens, after a very long game as after a short one. */
START_TEST(each_game_has_its_own_tokens)
{
	hg_buf b;
	hg_buf_init(&b);
#define HEAD_R HEAD "[Result \"*\"]\n\n"
	hg_buf_puts(&b, HEAD_R);
	const size_t actions = 12000;	/* 72,000 tokens: a list not kept */
	for (size_t i = 0; i < actions; i++)
		hg_buf_printf(&b, "P%d: w1 w2 w3 w4 w5 w%zu\n", (int)(i % 2) + 1, i);
	hg_buf_puts(&b, "*\n\n" HEAD_R "P1: x y *\n\n" HEAD_R "P2: z *\n\n" HEAD_R);
	/* then few tokens but more text than is kept: 200 of 6,000 bytes */
	for (size_t i = 0; i < 200; i++) {
		hg_buf_printf(&b, "P1: %zu", i);
		for (int k = 0; k < 6000; k++)
			hg_buf_putc(&b, 'a' + k % 26);
		hg_buf_puts(&b, "\n");
	}
	hg_buf_puts(&b, "*\n\n" HEAD_R "P2: v *\n");
#undef HEAD_R
	hg_diags d;
	hg_diags_init(&d);
	unit_games gs;
	ck_assert_uint_eq(parse_n(b.data, b.len, NULL, &d, &gs), 5);
	ck_assert_uint_eq(d.nerrors, 0);
	const hg_line *m = &gs.v[0]->moves;
	ck_assert_uint_eq(m->n, actions);
	for (size_t i = 0; i < actions; i += 997) {
		const hg_action_text *t = &m->nodes[i].action;
		char last[32];
		snprintf(last, sizeof last, "w%zu", i);
		ck_assert_uint_eq(t->ntoks, 6);
		ck_assert_str_eq(t->toks[0].text, "w1");
		ck_assert_str_eq(t->toks[5].text, last);
		ck_assert_uint_eq(t->toks[5].len, strlen(last));
		ck_assert_uint_eq(t->toks[5].off, 15);
		ck_assert_uint_eq(t->toks[5].pos.line, 6 + i);
		ck_assert_uint_eq(strlen(t->text), t->len);
		ck_assert_str_eq(t->seat, i % 2 ? "P2" : "P1");
	}
	ck_assert_str_eq(gs.v[1]->moves.nodes[0].action.text, "x y");
	ck_assert_str_eq(gs.v[1]->moves.nodes[0].action.toks[1].text, "y");
	ck_assert_str_eq(gs.v[2]->moves.nodes[0].action.text, "z");
	ck_assert_str_eq(gs.v[2]->moves.nodes[0].action.seat, "P2");
	const hg_line *longs = &gs.v[3]->moves;
	ck_assert_uint_eq(longs->n, 200);
	ck_assert_uint_eq(longs->nodes[199].action.toks[0].len, 6003);
	ck_assert_int_eq(strncmp(longs->nodes[199].action.text, "199abc", 6), 0);
	ck_assert_str_eq(gs.v[4]->moves.nodes[0].action.text, "v");
	unit_games_free(&gs);
	hg_diags_free(&d);
	hg_buf_free(&b);
}
END_TEST

/* Checks that each token's own text in the actions of `line` (and of its
 * variations) is its action's text at the token's offset; returns how many
 * tokens it checked. */
static size_t token_texts_checked(const hg_line *line)
{
	size_t seen = 0;
	for (size_t i = 0; i < line->n; i++) {
		const hg_node *n = &line->nodes[i];
		if (n->kind == HG_NODE_VARIATION)
			seen += token_texts_checked(n->variation);
		if (n->kind != HG_NODE_ACTION)
			continue;
		const hg_action_text *t = &n->action;
		for (size_t k = 0; k < t->ntoks; k++) {
			const hg_atok *a = &t->toks[k];
			ck_assert_uint_le(a->off + a->len, t->len);
			ck_assert_int_eq(memcmp(a->text, t->text + a->off, a->len), 0);
			ck_assert_int_eq(a->text[a->len], '\0');
			seen++;
		}
	}
	return seen;
}

/* Every token's own text, in every action of every game, is the action's
 * text at the token's offset: the texts point where the tokens were
 * gathered, and follow them when a game outgrows its room, in tokens or
 * in bytes, from one token on or half-way through an action.  Games of
 * many sizes one after the other (the room follows the last game's), with
 * tokens the plain path reads and tokens it leaves to the lexer (letters
 * beyond ASCII, a '?'), and variations. */
START_TEST(token_texts_follow_their_room)
{
	static const size_t actions[] = { 1, 40, 3, 700, 2, 5000, 60, 1, 900 };
	hg_prng r;
	hg_prng_seed(&r, "token texts");
	hg_buf b;
	hg_buf_init(&b);
	size_t want_tokens = 0;
	for (size_t g = 0; g < sizeof actions / sizeof actions[0]; g++) {
		hg_buf_puts(&b, HEAD "[Result \"*\"]\n\n");
		for (size_t i = 0; i < actions[g]; i++) {
			hg_buf_printf(&b, "P%d:", (int)(i % 2) + 1);
			unsigned n = 1 + hg_prng_below(&r, 12);
			for (unsigned k = 0; k < n; k++) {
				switch (hg_prng_below(&r, 8)) {
				case 0:	/* a long word: the texts outgrow their room */
					hg_buf_putc(&b, ' ');
					for (unsigned c = 200 + hg_prng_below(&r, 400); c > 0; c--)
						hg_buf_putc(&b, 'a' + (char)(c % 26));
					break;
				case 1:
					hg_buf_puts(&b, " caf\xc3\xa9");
					break;
				case 2:
					hg_buf_puts(&b, " ?");
					break;
				default:
					hg_buf_printf(&b, " w%u", hg_prng_below(&r, 1000));
				}
			}
			want_tokens += n;
			if (i % 97 == 5) {
				hg_buf_puts(&b, " (P2: v1 v2)");
				want_tokens += 2;
			}
			hg_buf_putc(&b, '\n');
		}
		hg_buf_puts(&b, "*\n\n");
	}
	hg_diags d;
	hg_diags_init(&d);
	unit_games gs;
	ck_assert_uint_eq(parse_n(b.data, b.len, NULL, &d, &gs), sizeof actions / sizeof actions[0]);
	ck_assert_uint_eq(d.nerrors, 0);
	size_t seen = 0;
	for (size_t g = 0; g < gs.n; g++)
		seen += token_texts_checked(&gs.v[g]->moves);
	ck_assert_uint_eq(seen, want_tokens);
	unit_games_free(&gs);
	hg_diags_free(&d);
	hg_buf_free(&b);
}
END_TEST

START_TEST(records_outlive_their_parser)
{
	hg_diags d;
	hg_diags_init(&d);
	char *name = hg_xstrdup("gone.hgn");
	hg_parser *p = hg_parser_open_mem(name, brief_example, strlen(brief_example));
	hg_game_record *g;
	ck_assert_int_eq(hg_parser_next(p, &g, &d), 1);
	hg_parser_close(p);
	free(name);
	ck_assert_str_eq(g->moves.nodes[1].pos.file, "gone.hgn");
	ck_assert_str_eq(g->moves.nodes[1].action.toks[0].pos.file, "gone.hgn");
	ck_assert_str_eq(g->tags[0].pos.file, "gone.hgn");
	ck_assert_str_eq(g->result_pos.file, "gone.hgn");
	hg_record_free(g);
	hg_diags_free(&d);
}
END_TEST

START_TEST(nesting_limit_default)
{
	hg_buf src;
	hg_buf_init(&src);
	for (int depth = HG_MAX_NESTING; depth <= HG_MAX_NESTING + 1; depth++) {
		hg_buf_clear(&src);
		hg_buf_puts(&src, HEAD "[Result \"*\"]\n\nP1: a ");
		for (int i = 0; i < depth; i++)
			hg_buf_puts(&src, "(P1: b ");
		for (int i = 0; i < depth; i++)
			hg_buf_puts(&src, ")");
		hg_buf_puts(&src, " P2: c\n*\n");
		hg_diags d;
		hg_diags_init(&d);
		unit_games gs;
		parse(src.data, &d, &gs);
		const hg_line *m = &gs.v[0]->moves;
		ck_assert_str_eq(m->nodes[m->n - 1].action.text, "c");
		if (depth == HG_MAX_NESTING) {
			ck_assert_uint_eq(d.n, 0);
		} else {
			ck_assert_uint_eq(d.n, 1);
			ck_assert_str_eq(d.v[0].code, "hgn.too-deep");
			ck_assert_uint_eq(d.v[0].col, 7 + 7 * HG_MAX_NESTING);
		}
		unit_games_free(&gs);
		hg_diags_free(&d);
	}
	hg_buf_free(&src);
}
END_TEST

START_TEST(error_limit_default)
{
	hg_buf src;
	hg_buf_init(&src);
	hg_buf_puts(&src, HEAD "[Result \"*\"]\n\n");
	for (int i = 0; i < 150; i++)
		hg_buf_puts(&src, "P1: a)\n");
	hg_buf_puts(&src, "*\n\n" HEAD "[Result \"*\"]\n\nP1: a)\n*\n");
	hg_diags d;
	hg_diags_init(&d);
	unit_games gs;
	ck_assert_uint_eq(parse(src.data, &d, &gs), 2);
	ck_assert_uint_eq(d.n, HG_MAX_ERRORS + 2);
	ck_assert_str_eq(d.v[HG_MAX_ERRORS].code, "hgn.too-many-errors");
	ck_assert_uint_eq(d.v[HG_MAX_ERRORS].line, 6 + HG_MAX_ERRORS);
	/* the next game is read afresh */
	ck_assert_str_eq(d.v[HG_MAX_ERRORS + 1].code, "hgn.unbalanced-paren");
	ck_assert_uint_eq(gs.v[1]->moves.n, 1);
	unit_games_free(&gs);
	hg_diags_free(&d);
	hg_buf_free(&src);
}
END_TEST

START_TEST(game_limit_default)
{
	/* a game of more than HG_MAX_GAME bytes is cut off and skipped; the next
	 * game is read */
	size_t comment = HG_MAX_TOKEN - 10;
	hg_buf src;
	hg_buf_init(&src);
	hg_buf_puts(&src, HEAD "[Result \"*\"]\n\n");
	char *filler = hg_xmalloc(comment + 1);
	memset(filler, 'x', comment);
	filler[comment] = '\0';
	while (src.len <= HG_MAX_GAME + 2 * comment) {
		hg_buf_puts(&src, "P1: a {");
		hg_buf_puts(&src, filler);
		hg_buf_puts(&src, "}\n");
	}
	hg_buf_puts(&src, "*\n\n" HEAD "[Result \"*\"]\n\nP1: last\n*\n");
	hg_diags d;
	hg_diags_init(&d);
	unit_games gs;
	ck_assert_uint_eq(parse_n(src.data, src.len, NULL, &d, &gs), 2);
	ck_assert_uint_eq(d.n, 1);
	ck_assert_str_eq(d.v[0].code, "hgn.game-too-long");
	size_t held = 0;
	for (size_t i = 0; i < gs.v[0]->moves.n; i++)
		if (gs.v[0]->moves.nodes[i].comment)
			held += strlen(gs.v[0]->moves.nodes[i].comment);
	ck_assert_uint_le(held, HG_MAX_GAME);
	ck_assert_str_eq(gs.v[1]->moves.nodes[0].action.text, "last");
	unit_games_free(&gs);
	hg_diags_free(&d);
	hg_buf_free(&src);
	free(filler);
}
END_TEST

START_TEST(action_limit)
{
	hg_limits lim;
	hg_limits_default(&lim);
	lim.actions = 1000;
	hg_buf src;
	hg_buf_init(&src);
	hg_buf_puts(&src, HEAD "[Result \"*\"]\n\n");
	for (int i = 0; i < 600; i++)
		hg_buf_puts(&src, "P1: a (P2: b)\n");
	hg_buf_puts(&src, "*\n\n" HEAD "[Result \"*\"]\n\nP1: last\n*\n");
	hg_diags d;
	hg_diags_init(&d);
	unit_games gs;
	ck_assert_uint_eq(parse_n(src.data, src.len, &lim, &d, &gs), 2);
	char *c = codes(&d);
	ck_assert_str_eq(c, "506:1 hgn.too-many-actions\n");	/* the 1001st */
	free(c);
	ck_assert_str_eq(gs.v[1]->moves.nodes[0].action.text, "last");
	unit_games_free(&gs);
	hg_diags_free(&d);
	hg_buf_free(&src);
}
END_TEST

/* A small deterministic generator of hostile input. */
static uint32_t rng_state = 12345;

static uint32_t rnd(void)
{
	rng_state = rng_state * 1103515245u + 12345u;
	return rng_state >> 8;
}

START_TEST(hostile_bytes_never_break_it)
{
	static const char *const pieces[] = {
		"[", "]", "Game", "\"", "\\", "{", "}", ";", "\n", "\n\n", " ", "P1:", ":",
		"(", ")", "*", "$", "12.", "!", "?", "\xff", "\0", "\xc3\xad", "draw", "c12",
		"[Result \"*\"]", HEAD, "\r\n", "\t", "#", "3.5", "\xe2\x82", "\x07",
	};
	hg_limits lim;
	hg_limits_default(&lim);
	lim.game = 2000;
	lim.token = 30;
	lim.line = 200;
	lim.nesting = 4;
	lim.errors = 20;
	for (int round = 0; round < 3000; round++) {
		hg_buf src;
		hg_buf_init(&src);
		int n = (int)(rnd() % 120);
		for (int i = 0; i < n; i++) {
			const char *pc = pieces[rnd() % HG_ARRAY_LEN(pieces)];
			if (*pc == '\0')
				hg_buf_putn(&src, pc, 1);
			else
				hg_buf_puts(&src, pc);
		}
		hg_diags d;
		hg_diags_init(&d);
		unit_games gs;
		parse_n(src.data ? src.data : "", src.len, round % 2 ? &lim : NULL, &d, &gs);
		for (size_t i = 0; i < d.n; i++) {
			ck_assert_msg(strncmp(d.v[i].code, "hgn.", 4) == 0, "code %s", d.v[i].code);
			ck_assert_uint_ge(d.v[i].line, 1);
			ck_assert_uint_ge(d.v[i].col, 1);
		}
		/* every game can be written, whatever it holds */
		hg_buf out;
		hg_buf_init(&out);
		for (size_t i = 0; i < gs.n; i++)
			hg_write_hgn(gs.v[i], &out);
		ck_assert(gs.n == 0 || out.len > 0);
		hg_buf_free(&out);
		unit_games_free(&gs);
		hg_diags_free(&d);
		hg_buf_free(&src);
	}
}
END_TEST

/* ------------------------------------------------------------------------
 * Resume points (herald check -j N reads a large file in pieces)
 * ------------------------------------------------------------------------ */

/* What a parser reads from here on, game by game: each game as written,
 * its line and its diagnostics; then what the end of the input says.
 * at[i] is set to whether the parser resumes at each of the ncands
 * candidates after game i (at may be NULL). */
typedef struct reading {
	char **game;	/* one dump per game, then one for the end */
	size_t n;
	int *resumes;	/* [game * ncands + candidate] */
} reading;

static void read_all(hg_parser *p, const hg_resume *cands, size_t ncands, reading *rd)
{
	memset(rd, 0, sizeof *rd);
	hg_diags d;
	hg_diags_init(&d);
	for (;;) {
		hg_game_record *g = NULL;
		int rc = hg_parser_next(p, &g, &d);
		hg_buf b;
		hg_buf_init(&b);
		if (g) {
			hg_buf_printf(&b, "game at line %u\n", g->pos.line);
			hg_write_hgn(g, &b);
			hg_record_free(g);
		} else {
			hg_buf_printf(&b, "end %d\n", rc);
		}
		char *dt = diag_text(&d);
		hg_buf_puts(&b, dt);
		free(dt);
		hg_diags_clear(&d);
		rd->game = hg_xrealloc(rd->game, (rd->n + 1) * sizeof *rd->game);
		rd->resumes = hg_xrealloc(rd->resumes, (rd->n + 1) * (ncands + 1) * sizeof *rd->resumes);
		for (size_t c = 0; c < ncands; c++)
			rd->resumes[rd->n * ncands + c] = rc == 1 && hg_parser_resumes_at(p, &cands[c]);
		rd->game[rd->n++] = hg_buf_steal(&b);
		if (rc != 1)
			break;
	}
	hg_diags_free(&d);
}

static void reading_free(reading *rd)
{
	for (size_t i = 0; i < rd->n; i++)
		free(rd->game[i]);
	free(rd->game);
	free(rd->resumes);
}

/* Every candidate hg_resume_find() gives in the file at path, in order. */
static size_t find_all(const char *path, hg_resume **out)
{
	int fd = open(path, O_RDONLY);
	ck_assert_int_ge(fd, 0);
	hg_resume from = { 0, 1, 0 }, next;
	size_t n = 0;
	*out = NULL;
	while (hg_resume_find(fd, &from, from.offset + 1, &next) == 1) {
		ck_assert_uint_gt(next.offset, from.offset);
		*out = hg_xrealloc(*out, (n + 1) * sizeof **out);
		(*out)[n++] = next;
		from = next;
	}
	close(fd);
	return n;
}

static void write_file(const char *path, const char *text, size_t len)
{
	FILE *fp = fopen(path, "wb");
	ck_assert_ptr_nonnull(fp);
	ck_assert_uint_eq(fwrite(text, 1, len, fp), len);
	ck_assert_int_eq(fclose(fp), 0);
}

/* Checks the resume points of the file at path: where a parser reading it
 * whole says it resumes at a candidate, a parser opened there reads
 * exactly what the whole reading read after that game.  Returns how many
 * candidates were taken, and adds the refused ones to *refused. */
static size_t check_resumes(const char *path, const hg_limits *lim, size_t *refused)
{
	hg_resume *cands;
	size_t ncands = find_all(path, &cands), taken = 0;
	hg_diags d;
	hg_diags_init(&d);
	hg_parser *p = hg_parser_open_file(path, &d);
	ck_assert_ptr_nonnull(p);
	if (lim)
		hg_parser_set_limits(p, lim);
	reading whole;
	read_all(p, cands, ncands, &whole);
	hg_parser_close(p);
	for (size_t c = 0; c < ncands; c++) {
		size_t after = whole.n;
		for (size_t g = 0; g + 1 < whole.n; g++)
			if (whole.resumes[g * ncands + c]) {
				ck_assert_uint_eq(after, whole.n);	/* after one game only */
				after = g + 1;
			}
		if (after == whole.n) {
			(*refused)++;
			continue;
		}
		taken++;
		p = hg_parser_open_file_at(path, &cands[c], &d);
		ck_assert_ptr_nonnull(p);
		if (lim)
			hg_parser_set_limits(p, lim);
		reading part;
		read_all(p, NULL, 0, &part);
		hg_parser_close(p);
		ck_assert_uint_eq(part.n, whole.n - after);
		for (size_t i = 0; i < part.n; i++)
			ck_assert_str_eq(part.game[i], whole.game[after + i]);
		reading_free(&part);
	}
	ck_assert_uint_eq(d.n, 0);
	reading_free(&whole);
	free(cands);
	hg_diags_free(&d);
	return taken;
}

/* Makes an empty file of the name mkstemp() makes of `path` (a template),
 * for a test to write and read again. */
static void empty_temp_file(char *path)
{
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	close(fd);
}

START_TEST(a_parser_opened_at_a_resume_point_reads_as_the_whole_file)
{
	static const char *const pieces[] = {
		"[", "]", "\"", "{", "}", ";", "\n", "\n\n", " ", "P1:", ":", "(", ")", "*",
		"\xff", "\0", "\xc3\xad", "draw", "\r\n", "\n\n[", "\n\n[Game \"x\"]\n",
		"*\n\n", "\"P1\"\n{after}\n\n", "\n{c\n\n[Game \"y\"]\n}\n",
	};
	hg_limits lim;
	hg_limits_default(&lim);
	lim.errors = 20;
	char path[] = "/tmp/herald-resume-XXXXXX";
	empty_temp_file(path);
	size_t taken = 0, refused = 0;
	for (int round = 0; round < 60; round++) {
		/* well-formed games, broken here and there */
		size_t len;
		char *games_text = many_games(6, &len);
		hg_buf src;
		hg_buf_init(&src);
		size_t at = 0;
		while (at < len) {
			size_t step = 1 + rnd() % 600;
			if (step > len - at)
				step = len - at;
			hg_buf_putn(&src, games_text + at, step);
			at += step;
			if (rnd() % 2) {
				const char *pc = pieces[rnd() % HG_ARRAY_LEN(pieces)];
				hg_buf_putn(&src, pc, *pc ? strlen(pc) : 1);
			}
		}
		write_file(path, src.data, src.len);
		/* a game limit about the games' size, which the bytes before
		 * a game count against */
		lim.game = 1000 + rnd() % 300;
		taken += check_resumes(path, round % 2 ? &lim : NULL, &refused);
		hg_buf_free(&src);
		free(games_text);
	}
	/* both ways were tried */
	ck_assert_uint_gt(taken, 100);
	ck_assert_uint_gt(refused, 10);
	unlink(path);
}
END_TEST

START_TEST(resume_candidates_that_are_no_game_start_are_refused)
{
	char path[] = "/tmp/herald-resume-XXXXXX";
	empty_temp_file(path);
	static const struct {
		const char *between;	/* after the first game's marker */
		int resumes;
	} cases[] = {
		{ "\n\n", 1 },
		{ "  \r\n \t\n\n", 1 },
		/* a trailer: the next game's size counts from the marker */
		{ "\n{trailer}\n\n", 0 },
		/* the next game's header comment, which holds a blank line
		 * and a '[' that begins a line */
		{ "\n\n{a comment\n\n[Game \"x\"]\n}\n", 0 },
		/* no blank line: not a candidate at all */
		{ "\n", -1 },
	};
	for (size_t i = 0; i < HG_ARRAY_LEN(cases); i++) {
		hg_buf b;
		hg_buf_init(&b);
		hg_buf_printf(&b, HEAD "[Result \"*\"]\n\n1. P1: draw c1\n*%s" HEAD
			      "[Result \"*\"]\n\n1. P1: draw c2\n*\n", cases[i].between);
		write_file(path, b.data, b.len);
		hg_resume *cands;
		size_t n = find_all(path, &cands);
		if (cases[i].resumes < 0) {
			ck_assert_uint_eq(n, 0);
			hg_buf_free(&b);
			continue;
		}
		ck_assert_uint_eq(n, 1);
		const char *second = strstr(b.data + 1, "\n[Game") + 1;
		if (cases[i].resumes)
			ck_assert_uint_eq(cands[0].offset, (uint64_t)(second - b.data));
		hg_diags d;
		hg_diags_init(&d);
		hg_parser *p = hg_parser_open_file(path, &d);
		hg_game_record *g;
		ck_assert_int_eq(hg_parser_next(p, &g, &d), 1);
		hg_record_free(g);
		ck_assert_int_eq(hg_parser_resumes_at(p, &cands[0]), cases[i].resumes);
		/* a candidate one byte off, or on another line, is no resume point */
		hg_resume off = cands[0];
		off.line++;
		ck_assert_int_eq(hg_parser_resumes_at(p, &off), 0);
		off = cands[0];
		off.game_bytes++;
		ck_assert_int_eq(hg_parser_resumes_at(p, &off), 0);
		hg_parser_close(p);
		hg_diags_free(&d);
		free(cands);
		hg_buf_free(&b);
	}
	unlink(path);
}
END_TEST

START_TEST(malformed_records)
{
	const char *top = getenv("top_srcdir");
	ck_assert_msg(top != NULL, "top_srcdir is not set (make check exports it)");
	hg_buf dir;
	hg_buf_init(&dir);
	hg_buf_printf(&dir, "%s/records/malformed", top);
	DIR *dp = opendir(dir.data);
	ck_assert_msg(dp != NULL, "cannot open %s", dir.data);
	size_t checked = 0;
	struct dirent *de;
	while ((de = readdir(dp)) != NULL) {
		size_t nlen = strlen(de->d_name);
		if (nlen < 5 || strcmp(de->d_name + nlen - 4, ".hgn") != 0)
			continue;
		hg_buf path, expect_path;
		hg_buf_init(&path);
		hg_buf_init(&expect_path);
		hg_buf_printf(&path, "%s/%s", dir.data, de->d_name);
		hg_buf_printf(&expect_path, "%s/%.*s.expect", dir.data, (int)(nlen - 4), de->d_name);
		size_t len, elen;
		char *read = read_file(path.data, &len);
		char *want = read_file(expect_path.data, &elen);
		/* exactly the file's bytes, for the sanitizer build to see a
		 * read past its end */
		char *text = hg_xmalloc(len ? len : 1);
		memcpy(text, read, len);
		free(read);
		hg_diags d;
		hg_diags_init(&d);
		hg_parser *p = hg_parser_open_mem(de->d_name, text, len);
		unit_games gs;
		ck_assert_int_eq(parse_with(p, &d, &gs), 0);
		hg_parser_close(p);
		char *got = diag_text(&d);
		ck_assert_msg(strcmp(got, want) == 0, "%s:\nwant:\n%sgot:\n%s", de->d_name, want, got);
		ck_assert_msg(d.nerrors > 0, "%s: no error", de->d_name);
		free(got);
		free(want);
		free(text);
		unit_games_free(&gs);
		hg_diags_free(&d);
		hg_buf_free(&path);
		hg_buf_free(&expect_path);
		checked++;
	}
	closedir(dp);
	hg_buf_free(&dir);
	ck_assert_uint_ge(checked, 20);
}
END_TEST

/* A control character is never kept: it reads as a blank, in a comment,
 * a line comment and a tag value, on the careful path as on the plain. */
START_TEST(control_characters_are_read_as_blanks)
{
	static const char src[] = HEAD "[Event \"a\x07" "b\xc2\x9b\"]\n[Result \"*\"]\n"
				  "{x\x1b[2Jy}\n; z\x1b\n*\n";
	for (int careful = 0; careful < 2; careful++) {
		hg_diags d;
		hg_diags_init(&d);
		hg_parser *p = hg_parser_open_mem("t.hgn", src, strlen(src));
		hg_parser_set_careful_only(p, careful);
		hg_game_record *g;
		ck_assert_int_eq(hg_parser_next(p, &g, &d), 1);
		ck_assert_str_eq(hg_record_tag_value(g, "Event"), "a b ");
		ck_assert_uint_eq(g->moves.n, 2);
		ck_assert_str_eq(g->moves.nodes[0].comment, "x [2Jy");
		ck_assert_str_eq(g->moves.nodes[1].comment, "z");
		ck_assert_uint_eq(d.nerrors, 3);
		hg_record_free(g);
		hg_parser_close(p);
		hg_diags_free(&d);
	}
}
END_TEST

Suite *unit_suite(void)
{
	Suite *s = suite_create("parser");
	TCase *tc = tcase_create("parser");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, brief_example_builds_the_record);
	tcase_add_test(tc, tags_live_in_the_record_arena);
	tcase_add_test(tc, bodies_span_lines);
	tcase_add_test(tc, variations_nest);
	tcase_add_test(tc, comments_everywhere);
	tcase_add_test(tc, termination_markers);
	tcase_add_test(tc, dates);
	tcase_add_test(tc, date_slips);
	tcase_add_loop_test(tc, every_code, 0, (int)HG_ARRAY_LEN(code_cases));
	tcase_add_test(tc, the_game_limit_skips_to_the_next_game);
	tcase_add_test(tc, recovery_reports_every_error);
	tcase_add_test(tc, errors_in_many_games);
	tcase_add_test(tc, each_call_reports_its_own_game);
	tcase_add_test(tc, multi_game_boundaries);
	tcase_add_test(tc, streams_from_a_file);
	tcase_add_test(tc, io_errors);
	tcase_add_test(tc, a_caller_may_pass_no_diagnostics_list);
	tcase_add_test(tc, records_outlive_their_parser);
	tcase_add_test(tc, plain_bodies_change_nothing);
	tcase_add_test(tc, runs_of_plain_actions_change_nothing);
	tcase_add_test(tc, long_runs_of_tokens_change_nothing);
	tcase_add_test(tc, runs_read_at_once_change_nothing);
	tcase_add_test(tc, tag_pairs_taken_whole_change_nothing);
	tcase_add_test(tc, runs_after_seats_of_every_length_change_nothing);
	tcase_add_test(tc, taken_seats_and_move_numbers_change_nothing);
	tcase_add_test(tc, nesting_limit_default);
	tcase_add_test(tc, error_limit_default);
	tcase_add_test(tc, game_limit_default);
	tcase_add_test(tc, action_limit);
	tcase_add_test(tc, each_game_has_its_own_tokens);
	tcase_add_test(tc, hostile_bytes_never_break_it);
	tcase_add_test(tc, malformed_records);
	tcase_add_test(tc, token_texts_follow_their_room);
	tcase_add_test(tc, a_parser_opened_at_a_resume_point_reads_as_the_whole_file);
	tcase_add_test(tc, resume_candidates_that_are_no_game_start_are_refused);
	tcase_add_test(tc, control_characters_are_read_as_blanks);
	suite_add_tcase(s, tc);
	return s;
}
