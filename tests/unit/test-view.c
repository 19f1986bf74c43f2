/* test-view.c - seat views through libherald (hg_view_seat, hg_view_record
 * and the engines' view members): the seat found by any of its names, what
 * a view keeps and drops of a record, a view of a view, no view of an
 * illegal record nor of one the fair check refuses, and the legal actions
 * that name chance; and what herald.h gives an end user of a game (its
 * id and title, freeing the position hg_check_game leaves). */
#include "unit.h"

#include <stdlib.h>
#include <string.h>

#include "herald-engine.h"
#include "unit-parse.h"

#define DATA HERALD_SRCDATADIR

static int has_code(const hg_diags *d, const char *code)
{
	for (size_t i = 0; i < d->n; i++)
		if (strcmp(d->v[i].code, code) == 0)
			return 1;
	return 0;
}

static hg_game_record *parse(const char *text)
{
	return unit_parse_first("test.hgn", text);
}

static char *hgn(const hg_game_record *g)
{
	hg_buf b;
	hg_buf_init(&b);
	hg_write_hgn(g, &b);
	return hg_buf_steal(&b);
}

/* The first actions of a random game of The Kingdoms of Crusaders, with
 * its Seed, a tag committing to it, a comment, a NAG and a variation. */

static hg_game_record *koc_record(hg_session *s)
{
	/* The deal and the first turns as the Seed gives them: generated. */
	hg_diags d;
	hg_diags_init(&d);
	hg_game_record *gen = hg_generate(s, hg_game_find("koc"), "view-test", 2, NULL, &d);
	ck_assert_ptr_nonnull(gen);
	hg_buf text;
	hg_buf_init(&text);
	hg_buf_printf(&text,
		      "[Game \"kingdoms-of-crusaders\"]\n[Date \"????.??.??\"]\n"
		      "[Players \"Ana; Ben\"]\n[Seed \"%s\"]\n[First \"%s\"]\n"
		      "[Event \"View test\"]\n[Result \"*\"]\n\n",
		      hg_record_tag_value(gen, "Seed"), hg_record_tag_value(gen, "First"));
	/* The first six actions; after the second a comment, a NAG and a
	 * variation (the action again). */
	size_t actions = 0;
	for (size_t i = 0; i < gen->moves.n && actions < 6; i++) {
		const hg_node *n = &gen->moves.nodes[i];
		if (n->kind == HG_NODE_MOVENUM) {
			hg_buf_printf(&text, "%u. ", n->number);
		} else if (n->kind == HG_NODE_ACTION) {
			hg_buf_printf(&text, "%s: %s ", n->action.seat, n->action.text);
			if (++actions == 2)
				hg_buf_printf(&text, "{Ben holds the best cards} $1 (%s: %s) ",
					      n->action.seat, n->action.text);
		}
	}
	hg_buf_puts(&text, "*\n");
	hg_record_free(gen);
	hg_diags_free(&d);
	hg_game_record *g = parse(text.data);
	hg_buf_free(&text);
	return g;
}

START_TEST(an_end_user_names_the_game_and_frees_its_final_position)
{
	const hg_game_class *koc = hg_game_find("koc");
	ck_assert_ptr_nonnull(koc);
	ck_assert_str_eq(hg_game_id(koc), "kingdoms-of-crusaders");
	ck_assert_str_eq(hg_game_title(koc), "The Kingdoms of Crusaders");
	hg_session *s = hg_session_new(DATA);
	hg_game_record *g = koc_record(s);
	hg_diags d;
	hg_diags_init(&d);
	hg_state *final = NULL;
	const hg_game_class *cls = NULL;
	ck_assert_int_eq(hg_check_game(s, g, &d, NULL, NULL, &final, &cls), 0);
	ck_assert_ptr_eq(cls, koc);
	ck_assert_ptr_nonnull(final);
	hg_state_free(cls, final);	/* (a leak here fails the sanitizer run) */
	hg_state_free(cls, NULL);
	hg_diags_free(&d);
	hg_record_free(g);
	hg_session_free(s);
}
END_TEST

START_TEST(a_seat_is_found_by_any_of_its_names)
{
	hg_session *s = hg_session_new(DATA);
	hg_game_record *g = koc_record(s);
	hg_diags d;
	hg_diags_init(&d);
	unsigned seat = 9;
	ck_assert_int_eq(hg_view_seat(s, g, "P2", &seat, &d), 0);
	ck_assert_uint_eq(seat, 1);
	ck_assert_int_eq(hg_view_seat(s, g, "ana", &seat, &d), 0);
	ck_assert_uint_eq(seat, 0);
	ck_assert_uint_eq(d.n, 0);
	ck_assert_int_eq(hg_view_seat(s, g, "P3", &seat, &d), -1);
	ck_assert(has_code(&d, "view.unknown-seat"));
	ck_assert_uint_eq(d.v[0].nnotes, 1);
	ck_assert_str_eq(d.v[0].notes[0], "the players' seats are P1, P2");
	hg_diags_free(&d);
	hg_record_free(g);
	hg_session_free(s);
}
END_TEST

START_TEST(a_view_hides_the_other_hand_and_withholds_the_seed)
{
	hg_session *s = hg_session_new(DATA);
	hg_game_record *g = koc_record(s);
	hg_diags d;
	hg_diags_init(&d);
	hg_game_record *v = hg_view_record(s, g, 0, &d);
	ck_assert_ptr_nonnull(v);
	ck_assert_uint_eq(d.nerrors, 0);
	ck_assert_ptr_null(hg_record_tag(v, "Seed"));
	ck_assert_str_eq(hg_record_tag_value(v, "Event"), "View test");
	ck_assert_str_eq(hg_record_tag_value(v, "Players"), "Ana; Ben");
	size_t actions = 0, nags = 0;
	for (size_t i = 0; i < v->moves.n; i++) {
		const hg_node *n = &v->moves.nodes[i];
		ck_assert(n->kind != HG_NODE_COMMENT && n->kind != HG_NODE_VARIATION);
		nags += n->kind == HG_NODE_NAG;
		if (n->kind != HG_NODE_ACTION)
			continue;
		actions++;
		const char *text = n->action.text;
		int theirs = strcmp(n->action.seat, "P2") == 0;
		if (theirs && strncmp(text, "deal", 4) == 0)
			ck_assert_str_eq(text, "deal ? ? ? ? ?");
		if (theirs && strncmp(text, "draw", 4) == 0)
			ck_assert_str_eq(text, "draw ?");
		if (!theirs && (strncmp(text, "deal", 4) == 0 || strncmp(text, "draw", 4) == 0))
			ck_assert_ptr_null(strchr(text, '?'));
	}
	ck_assert_uint_eq(actions, 6);
	ck_assert_uint_eq(nags, 1);

	/* The view checks (unverified at most) and is its own view. */
	hg_check_result res;
	ck_assert_int_eq(hg_check_game(s, v, &d, NULL, &res, NULL, NULL), 0);
	ck_assert_uint_eq(d.nerrors, 0);
	hg_game_record *vv = hg_view_record(s, v, 0, &d);
	ck_assert_ptr_nonnull(vv);
	char *a = hgn(v), *b = hgn(vv);
	ck_assert_str_eq(a, b);
	free(a);
	free(b);
	hg_record_free(vv);
	hg_record_free(v);
	hg_record_free(g);
	hg_diags_free(&d);
	hg_session_free(s);
}
END_TEST

START_TEST(no_view_of_an_illegal_record)
{
	hg_session *s = hg_session_new(DATA);
	hg_game_record *g = parse("[Game \"kingdoms-of-crusaders\"]\n[Date \"????.??.??\"]\n[Players \"Ana; Ben\"]\n"
				  "[Result \"*\"]\n\n1. P1: place c01 3 *\n");
	hg_diags d;
	hg_diags_init(&d);
	ck_assert_ptr_null(hg_view_record(s, g, 1, &d));
	ck_assert(has_code(&d, "view.illegal"));
	hg_diags_free(&d);
	hg_record_free(g);
	hg_session_free(s);
}
END_TEST

/* Check refuses a Seed beside a SeedCommit before any action (the fair
 * check), so no view is made of such a record, legal as its actions are. */
START_TEST(no_view_of_a_record_the_fair_check_refuses)
{
	hg_session *s = hg_session_new(DATA);
	hg_game_record *g = koc_record(s);
	hg_record_set_tag(g, "SeedCommit",
			  "0000000000000000000000000000000000000000000000000000000000000000");
	hg_diags d;
	hg_diags_init(&d);
	ck_assert_ptr_null(hg_view_record(s, g, 1, &d));
	ck_assert(has_code(&d, "hgn.seed-commit"));
	ck_assert(has_code(&d, "view.illegal"));
	hg_diags_free(&d);
	hg_record_free(g);
	hg_session_free(s);
}
END_TEST

/* With a Seed, the legal draw names the deck's card: chance, which next
 * --as leaves out; the placements are the seat's choices. */
START_TEST(a_draw_the_deck_order_names_is_chance)
{
	hg_session *s = hg_session_new(DATA);
	hg_game_record *g = parse("[Game \"kingdoms-of-crusaders\"]\n[Date \"????.??.??\"]\n[Players \"Ana; Ben\"]\n"
				  "[Seed \"view-test\"]\n[Result \"*\"]\n\n*\n");
	const hg_game_class *cls;
	const hg_gdata *data;
	hg_diags d;
	hg_diags_init(&d);
	ck_assert_int_eq(hg_session_prepare(s, g, &cls, &data, &d), 0);
	hg_state *st = cls->setup(data, g, &d);
	ck_assert_ptr_nonnull(st);
	hg_action_list legal = { 0 };
	cls->legal(st, &legal);
	ck_assert_uint_gt(legal.n, 0);
	size_t chance = 0;
	for (size_t i = 0; i < legal.n; i++) {
		chance += cls->names_chance(st, legal.v[i]) != 0;
		cls->free_action(legal.v[i]);
	}
	free(legal.v);
	ck_assert_uint_eq(chance, legal.n);	/* the deals, every card named */
	cls->free_state(st);
	hg_diags_free(&d);
	hg_record_free(g);
	hg_session_free(s);
}
END_TEST

Suite *unit_suite(void)
{
	Suite *s = suite_create("view");
	TCase *tc = tcase_create("view");
	tcase_add_test(tc, an_end_user_names_the_game_and_frees_its_final_position);
	tcase_add_test(tc, a_seat_is_found_by_any_of_its_names);
	tcase_add_test(tc, a_view_hides_the_other_hand_and_withholds_the_seed);
	tcase_add_test(tc, no_view_of_an_illegal_record);
	tcase_add_test(tc, no_view_of_a_record_the_fair_check_refuses);
	tcase_add_test(tc, a_draw_the_deck_order_names_is_chance);
	suite_add_tcase(s, tc);
	return s;
}
