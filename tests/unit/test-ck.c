/* test-ck.c - Crusader Kingdoms: the data loader and its validation, the
 * notation, the turn and the card bonus (section 6's example), the worked
 * combat example of section 4 and its variants, incursions, events, the
 * end of the game, section 8 (the second map, the scenarios, the scripted
 * Muslim round and its worked example, the clarifications of 8.4, victory
 * points), and random games through legal() re-checked from their own
 * notation. */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ck.h"

#define DATA HERALD_SRCDATADIR "/crusader-kingdoms/"

static hg_gdata *shared;

static void dump(const hg_diags *d)
{
	for (size_t i = 0; i < d->n; i++) {
		hg_buf b;
		hg_buf_init(&b);
		hg_diag_format(&d->v[i], &b, 0);
		fputs(b.data, stderr);
		hg_buf_free(&b);
	}
}

static void load_shared(void)
{
	hg_diags d;
	hg_diags_init(&d);
	shared = hg_ck_load_files(DATA "scenarios.yaml", NULL, 0, NULL, 0, &d);
	dump(&d);
	ck_assert_ptr_nonnull(shared);
	ck_assert_uint_eq(d.n, 0);
	hg_diags_free(&d);
}

static void unload_shared(void)
{
	hg_ck_unload(shared);
	shared = NULL;
}

static hg_state *new_game(const char *scenario, const char *players, const char *seed,
			  hg_diags *d)
{
	hg_game_record *rec = hg_record_new("test.hgn");
	hg_record_set_tag(rec, "Game", "crusader-kingdoms");
	if (scenario)
		hg_record_set_tag(rec, "Scenario", scenario);
	hg_record_set_tag(rec, "Players", players);
	if (seed)
		hg_record_set_tag(rec, "Seed", seed);
	hg_state *s = hg_ck_class.setup(shared, rec, d);
	hg_record_free(rec);
	return s;
}

static hg_state *game4(const char *seed)
{
	hg_diags d;
	hg_diags_init(&d);
	hg_state *s = new_game("2nd-crusade", "Ana; Ben; Cid; Dora", seed, &d);
	dump(&d);
	ck_assert_ptr_nonnull(s);
	hg_diags_free(&d);
	return s;
}

/* Parses and applies "seat: body"; -2 when it does not parse. */
static int act(hg_state *s, const char *seat, const char *body, hg_diags *d)
{
	hg_action_text t;
	hg_pos pos = { "test.hgn", 1, 1 };
	if (hg_action_text_set(&t, seat, body, pos, d) != 0)
		return -2;
	hg_action *a = hg_ck_class.parse(s, &t, d);
	hg_action_text_free(&t);
	if (!a)
		return -2;
	int rc = hg_ck_class.apply(s, a, d);
	hg_ck_class.free_action(a);
	return rc;
}

static void act_ok(hg_state *s, const char *seat, const char *body)
{
	hg_diags d;
	hg_diags_init(&d);
	int rc = act(s, seat, body, &d);
	dump(&d);
	ck_assert_int_eq(rc, 0);
	ck_assert_uint_eq(d.nerrors, 0);
	hg_diags_free(&d);
}

/* Two streams will draw the same: the same key and block, and the same
 * bytes left of the block drawn (hg_prng_seed draws none: the rest of
 * `stream` is never read). */
static int same_stream(const unsigned char *ka, const unsigned char *kb, uint32_t block_a,
		       uint32_t block_b, unsigned used_a, unsigned used_b,
		       const unsigned char *sa, const unsigned char *sb, size_t size)
{
	return memcmp(ka, kb, 32) == 0 && block_a == block_b && used_a == used_b &&
	       (used_a >= size || memcmp(sa + used_a, sb + used_b, size - used_a) == 0);
}

static int same_prng(const hg_prng *a, const hg_prng *b)
{
	return same_stream(a->key, b->key, a->block, b->block, a->used, b->used, a->stream,
			   b->stream, sizeof a->stream);
}

static int same_prng_wide(const hg_prng_wide *a, const hg_prng_wide *b)
{
	return same_stream(a->key, b->key, a->block, b->block, a->used, b->used, a->stream,
			   b->stream, sizeof a->stream);
}

/* Two positions are the same: every byte hg_ck_state_new sets and the
 * rules read (struct hg_state: the fields before the streams, the streams
 * a Seed gave, each side's hand and the used part of its tableau). */
static int same_state(const hg_state *a, const hg_state *b)
{
	if (memcmp(a, b, offsetof(hg_state, dice)) != 0)
		return 0;
	if (a->seeded) {
		if (!same_prng_wide(&a->dice, &b->dice) || !same_prng(&a->random, &b->random))
			return 0;
		for (int r = 0; r < CK_NRELIGIONS; r++)
			for (int t = 1; t <= a->sc->turns; t++)
				if (!same_prng(&a->shuffle[r][t], &b->shuffle[r][t]))
					return 0;
	}
	for (int f = 0; f < a->nsides; f++) {
		const ck_player *x = &a->p[f], *y = &b->p[f];
		const ck_tableau *u = &x->tab, *v = &y->tab;
		if (x->bonus != y->bonus || memcmp(&x->hand, &y->hand, sizeof x->hand) != 0 ||
		    u->nstack != v->nstack || u->narmy != v->narmy || u->nreserve != v->nreserve ||
		    memcmp(u->stack, v->stack, (size_t)u->nstack * sizeof *u->stack) != 0 ||
		    memcmp(u->army, v->army, (size_t)u->narmy * sizeof *u->army) != 0 ||
		    memcmp(u->reserve, v->reserve, (size_t)u->nreserve * sizeof *u->reserve) != 0)
			return 0;
	}
	return 1;
}

/* The action is legal here; s is left as it was. */
static void act_ok_on_copy(const hg_state *s, const char *seat, const char *body)
{
	hg_state *work = hg_ck_class.clone(s);
	act_ok(work, seat, body);
	hg_ck_class.free_state(work);
}

/* The action is rejected with exactly one error, of this code. */
static void act_fails(hg_state *s, const char *seat, const char *body, const char *code)
{
	hg_diags d;
	hg_diags_init(&d);
	/* apply() may spoil the state it rejects an action on: try on a copy */
	hg_state *work = hg_ck_class.clone(s);
	int rc = act(work, seat, body, &d);
	hg_ck_class.free_state(work);
	if (d.nerrors != 1 || strcmp(d.v[0].code, code) != 0)
		dump(&d);
	ck_assert_int_ne(rc, 0);
	ck_assert_uint_eq(d.nerrors, 1);
	ck_assert_str_eq(d.v[0].code, code);
	if (rc == -2) {		/* rejected by parse(): nothing was applied */
		hg_diags_free(&d);
		return;
	}
	/* hg_apply_keep leaves the position as it was */
	hg_diags_clear(&d);
	hg_action_text t;
	hg_pos pos = { "test.hgn", 1, 1 };
	ck_assert_int_eq(hg_action_text_set(&t, seat, body, pos, &d), 0);
	hg_action *a = hg_ck_class.parse(s, &t, &d);
	hg_action_text_free(&t);
	ck_assert_ptr_nonnull(a);
	hg_state *kept = hg_ck_class.clone(s), *was = kept;
	ck_assert_int_ne(hg_apply_keep(&hg_ck_class, &kept, a, &d), 0);
	ck_assert_ptr_eq(kept, was);
	ck_assert(same_state(kept, s));
	hg_ck_class.free_action(a);
	hg_ck_class.free_state(kept);
	hg_diags_free(&d);
}

static int area(const char *id)
{
	int a = hg_names_find(shared->maps[0].names, id);
	ck_assert_int_ge(a, 0);
	return a;
}

static int card(int religion, const char *id)
{
	int c = hg_names_find(shared->decks[religion].names, id);
	ck_assert_int_ge(c, 0);
	return c;
}

static int faction(const hg_state *s, const char *id)
{
	int f = hg_names_find(s->sc->seats, id);
	ck_assert_int_ge(f, 0);
	return f;
}

/* ------------------------------------------------------------- data */

START_TEST(shipped_data_is_complete)
{
	/* The map: Homs has shield 3 and borders Latakia (section 4). */
	const ck_map *m = &shared->maps[0];
	ck_assert_str_eq(m->id, "saladino");
	int homs = area("homs"), latakia = area("Latakia");
	ck_assert_int_eq(m->areas[homs].defence, 3);
	ck_assert(m->areas[homs].adj >> latakia & 1);
	ck_assert(m->areas[latakia].adj >> homs & 1);
	/* aliases in English, accents ignored */
	ck_assert_int_eq(area("Antioch"), area("antioquía"));
	ck_assert_int_eq(area("Jerusalem"), area("JERUSALÉN"));
	/* Every card the text names exists where issue 4 puts it. */
	static const char *const muslim[] = {
		"incursion", "lider", "mercenarios", "campana-menor", "judios", "sucesion",
		"atalayas", "tregua", "reagrupamiento", "murallas", "comercio", "seduccion", NULL
	};
	static const char *const christian[] = {
		"turcopolos", "ataque-conjunto", "asesinos", "trovadores", "espias",
		"peregrinos-armados", "incursion", NULL
	};
	for (int i = 0; muslim[i]; i++)
		card(CK_MUSLIM, muslim[i]);
	for (int i = 0; christian[i]; i++)
		card(CK_CHRISTIAN, christian[i]);
	ck_assert_int_eq(card(CK_MUSLIM, "Campaña-menor"), card(CK_MUSLIM, "campana-menor"));
	/* a Muslim troop of strength 4 (8.1) */
	int four = 0;
	for (int c = 0; c < shared->decks[CK_MUSLIM].ncards; c++)
		four |= shared->decks[CK_MUSLIM].cards[c].type == CK_TROOP &&
			shared->decks[CK_MUSLIM].cards[c].strength == 4;
	ck_assert(four);
	/* Turcópolos: two more dice for the defence of a castle. */
	const ck_card *t = &shared->decks[CK_CHRISTIAN].cards[card(CK_CHRISTIAN, "turcopolos")];
	ck_assert_int_eq(t->type, CK_RESPONSE);
	ck_assert_int_eq(t->sides, CK_SIDE_DEFENCE);
	ck_assert_int_eq(t->fx[0].verb, CK_FX_DICE);
	ck_assert_int_eq(t->fx[0].n, 2);
	ck_assert(t->fx[0].needs_castle);
	/* Líder: three points on the dice of one roll. */
	const ck_card *l = &shared->decks[CK_MUSLIM].cards[card(CK_MUSLIM, "lider")];
	ck_assert_int_eq(l->fx[0].verb, CK_FX_MODIFY);
	ck_assert_int_eq(l->fx[0].n, 3);
	/* Incursión: a chosen player discards one card at random. */
	const ck_card *in = &shared->decks[CK_MUSLIM].cards[card(CK_MUSLIM, "incursion")];
	ck_assert_int_eq(in->fx[0].verb, CK_FX_RANDOM_DISCARD);
	ck_assert_int_eq(in->fx[0].n, 1);
	/* The two deployment tables of 7.1. */
	ck_assert_int_eq(shared->nscenarios, 4);
	const ck_scenario *four_p = &shared->scenarios[hg_names_find(shared->scenario_names, "2nd-crusade")];
	const ck_scenario *three_p = &shared->scenarios[hg_names_find(shared->scenario_names, "saladino")];
	ck_assert_int_eq(four_p->players, 4);
	ck_assert_int_eq(three_p->players, 3);
	ck_assert_str_eq(three_p->factions[0].id, "saladino");
	ck_assert_int_eq(three_p->factions[0].castles, 9);
	ck_assert_int_eq(three_p->factions[0].cards, 12);
	ck_assert_int_eq(__builtin_popcountll(three_p->factions[0].deploy), 4);
	ck_assert(three_p->no_attack_between[CK_CHRISTIAN]);
	ck_assert(!four_p->no_attack_between[CK_CHRISTIAN]);
	ck_assert_str_eq(four_p->factions[2].id, "antioquia");
	ck_assert_int_eq(four_p->factions[2].castles, 7);
}
END_TEST

/* Writes a scenarios file that uses `map` (YAML text) and the shipped
 * decks; loads it; returns the first diagnostic's code ("" when none). */
static char *load_with_map(const char *map_yaml, const char *deck_yaml)
{
	char dir[] = "/tmp/ck-test-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char path[256];
	snprintf(path, sizeof path, "%s/map.yaml", dir);
	FILE *f = fopen(path, "w");
	fputs(map_yaml, f);
	fclose(f);
	snprintf(path, sizeof path, "%s/deck.yaml", dir);
	f = fopen(path, "w");
	fputs(deck_yaml ? deck_yaml : "", f);
	fclose(f);
	snprintf(path, sizeof path, "%s/scenarios.yaml", dir);
	f = fopen(path, "w");
	fprintf(f, "maps: [map.yaml]\n"
		"decks: [%s, %s]\n"
		"scenarios:\n"
		"  - id: duel\n    players: 2\n    map: m\n    turns: 3\n    factions:\n"
		"      - {id: a, religion: muslim, castles: 3, deploy: [x], cards: 8}\n"
		"      - {id: b, religion: christian, castles: 3, deploy: [z], cards: 8}\n",
		deck_yaml ? "deck.yaml" : DATA "deck-muslim.yaml", DATA "deck-christian.yaml");
	fclose(f);
	hg_diags d;
	hg_diags_init(&d);
	hg_gdata *g = hg_ck_load_files(path, NULL, 0, NULL, 0, &d);
	char *code = hg_xstrdup(d.n ? d.v[0].code : "");
	if (g)
		ck_assert_uint_eq(d.nerrors, 0);
	else
		ck_assert_uint_gt(d.nerrors, 0);
	hg_ck_unload(g);
	hg_diags_free(&d);
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
	return code;
}

#define MAP_HEAD "id: m\nareas:\n"

static void expect_map(const char *areas, const char *code)
{
	char *got = load_with_map(areas, NULL);
	ck_assert_str_eq(got, code);
	free(got);
}

START_TEST(loader_accepts_a_small_map)
{
	expect_map(MAP_HEAD
		   "  - {id: x, defence: 1, adjacent: [y]}\n"
		   "  - {id: y, defence: 2, adjacent: [x, z]}\n"
		   "  - {id: z, defence: 3, adjacent: [y]}\n", "");
}
END_TEST

START_TEST(loader_rejects_bad_maps)
{
	/* a border listed on one side only */
	expect_map(MAP_HEAD
		   "  - {id: x, defence: 1, adjacent: [y]}\n"
		   "  - {id: y, defence: 2, adjacent: [z]}\n"
		   "  - {id: z, defence: 3, adjacent: [y]}\n", "data.reference");
	/* a border to nowhere */
	expect_map(MAP_HEAD
		   "  - {id: x, defence: 1, adjacent: [w]}\n"
		   "  - {id: z, defence: 3, adjacent: []}\n", "data.reference");
	/* an area bordering itself */
	expect_map(MAP_HEAD
		   "  - {id: x, defence: 1, adjacent: [x]}\n"
		   "  - {id: z, defence: 3, adjacent: []}\n", "data.reference");
	/* a Spanish keyword is reserved as an English one is */
	expect_map(MAP_HEAD
		   "  - {id: x, defence: 1, adjacent: []}\n"
		   "  - {id: z, aliases: [desde], defence: 3, adjacent: []}\n", "data.range");
	expect_map(MAP_HEAD
		   "  - {id: x, defence: 1, adjacent: []}\n"
		   "  - {id: z, aliases: [Ej\u00e9rcito], defence: 3, adjacent: []}\n", "data.range");
	/* two areas with one name */
	expect_map(MAP_HEAD
		   "  - {id: x, defence: 1, adjacent: []}\n"
		   "  - {id: z, aliases: [X], defence: 3, adjacent: []}\n", "data.duplicate-id");
	/* a shield out of range, a missing key, an unknown key */
	expect_map(MAP_HEAD "  - {id: x, defence: 0, adjacent: []}\n  - {id: z, defence: 3, adjacent: []}\n",
		   "data.range");
	expect_map(MAP_HEAD "  - {id: x, adjacent: []}\n  - {id: z, defence: 3, adjacent: []}\n",
		   "data.missing-key");
	expect_map(MAP_HEAD "  - {id: x, defence: 1, adjacent: [], shield: 2}\n  - {id: z, defence: 3, adjacent: []}\n",
		   "data.unknown-key");
	/* a name the notation could not write, a reserved word */
	expect_map(MAP_HEAD "  - {id: 'x y', defence: 1, adjacent: []}\n  - {id: z, defence: 3, adjacent: []}\n",
		   "data.range");
	expect_map(MAP_HEAD "  - {id: x, aliases: [attack], defence: 1, adjacent: []}\n  - {id: z, defence: 3, adjacent: []}\n",
		   "data.range");
	/* identification numbers: all or none, each once */
	expect_map(MAP_HEAD "  - {id: x, number: 1, defence: 1, adjacent: []}\n  - {id: z, defence: 3, adjacent: []}\n",
		   "data.missing-key");
	expect_map(MAP_HEAD "  - {id: x, number: 1, defence: 1, adjacent: []}\n  - {id: z, number: 1, defence: 3, adjacent: []}\n",
		   "data.duplicate-id");
	/* the deployment names an area the map lacks */
	expect_map(MAP_HEAD "  - {id: y, defence: 1, adjacent: []}\n  - {id: z, defence: 3, adjacent: []}\n",
		   "data.reference");
}
END_TEST

static void expect_deck(const char *cards, const char *code)
{
	static const char *const map = MAP_HEAD
		"  - {id: x, defence: 1, adjacent: [z]}\n"
		"  - {id: z, defence: 3, adjacent: [x]}\n";
	char deck[4096];
	snprintf(deck, sizeof deck, "id: muslim\nreligion: muslim\ncards:\n%s", cards);
	char *got = load_with_map(map, deck);
	ck_assert_str_eq(got, code);
	free(got);
}

START_TEST(loader_checks_the_effect_vocabulary)
{
	expect_deck("  - {id: t1, type: troop, strength: 1, copies: 3}\n"
		    "  - {id: l, type: response, sides: [attack], copies: 1, effects: [{modify: 3}]}\n"
		    "  - {id: e, type: event, copies: 1, effects: [{random-discard: 1, target: player}]}\n",
		    "");
	/* an unknown verb */
	expect_deck("  - {id: e, type: event, copies: 1, effects: [{explode: 1}]}\n",
		    "data.unknown-key");
	/* a response's verb on an event */
	expect_deck("  - {id: e, type: event, copies: 1, effects: [{dice: 2}]}\n", "data.range");
	/* a lasting verb on a card that is not P */
	expect_deck("  - {id: e, type: event, copies: 1, effects: [{defence-dice: 1}]}\n",
		    "data.range");
	/* two verbs in one step */
	expect_deck("  - {id: e, type: event, copies: 1, effects: [{draw: 1, bonus: 1}]}\n",
		    "data.range");
	/* a troop without strength, with effects */
	expect_deck("  - {id: t, type: troop, copies: 1}\n", "data.missing-key");
	expect_deck("  - {id: t, type: troop, strength: 2, copies: 1, effects: [{draw: 1}]}\n",
		    "data.unknown-key");
	/* a response without sides, a modifier on the wrong verb */
	expect_deck("  - {id: r, type: response, copies: 1, effects: [{dice: 1}]}\n",
		    "data.missing-key");
	expect_deck("  - {id: e, type: event, copies: 1, effects: [{draw: 1, requires: castle}]}\n",
		    "data.range");
	/* the deck of the wrong religion */
	expect_deck("  - {id: x, type: troop, strength: 1, copies: 100}\n", "data.range");
}
END_TEST

/* A scenarios file of one's own over the shipped map and decks: the
 * options sections 7.2 and 8 need (an interleaved order, removed cards,
 * a bonus moved by events only) on an all-player scenario. */
START_TEST(custom_scenario_options)
{
	char dir[] = "/tmp/ck-test-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char path[256];
	snprintf(path, sizeof path, "%s/scenarios.yaml", dir);
	FILE *f = fopen(path, "w");
	fprintf(f, "maps: [%s]\ndecks: [%s, %s]\n", DATA "map-saladino.yaml",
		DATA "deck-muslim.yaml", DATA "deck-christian.yaml");
	fputs("scenarios:\n"
	      "  - id: house\n    players: 2\n    map: saladino\n    turns: 1\n"
	      "    bonus-from-conquest: false\n"
	      "    order: [kerak-lord, emir, emir]\n"
	      "    removed: {muslim: [tropa-4, tropa-4, lider]}\n"
	      "    factions:\n"
	      "      - {id: emir, religion: muslim, castles: 5, deploy: [damasco], cards: 3}\n"
	      "      - {id: kerak-lord, religion: christian, castles: 5, deploy: [kerak], cards: 2}\n",
	      f);
	fclose(f);
	hg_diags d;
	hg_diags_init(&d);
	hg_gdata *g = hg_ck_load_files(path, NULL, 0, NULL, 0, &d);
	dump(&d);
	ck_assert_ptr_nonnull(g);
	hg_state *s = hg_ck_state_new(g, &g->scenarios[0], NULL);
	ck_assert_int_eq(s->pile[CK_MUSLIM].n, shared->decks[CK_MUSLIM].total - 3);
	/* the draws go in the factions' order, the rounds in `order` */
	act_fails(s, "kerak-lord", "draw tropa-1 tropa-2", "ck.not-your-round");
	act_fails(s, "emir", "draw tropa-4 tropa-1 tropa-1", "ck.card-exhausted");
	act_fails(s, "emir", "draw lider lider tropa-1", "ck.card-exhausted");
	act_ok(s, "emir", "draw lider tropa-1 tropa-2");
	act_ok(s, "kerak-lord", "draw tropa-1 tropa-2");
	ck_assert_str_eq(hg_ck_class.to_move(s), "kerak-lord");
	/* no bonus and no castle for a conquest (8.2) */
	act_fails(s, "kerak-lord", "attack bosra from kerak with tropa-2 / 5 6 = 2 vs 1 = 0 / won bonus",
		  "ck.choice");
	act_ok(s, "kerak-lord", "attack bosra from kerak with tropa-2 / 5 6 = 2 vs 1 = 0 / won");
	ck_assert_int_eq(s->p[1].bonus, 0);
	ck_assert_str_eq(hg_ck_class.to_move(s), "emir");
	act_ok(s, "emir", "pass");
	act_ok(s, "emir", "pass");		/* twice in a row: the emir's two rounds */
	act_ok(s, "kerak-lord", "pass end");
	ck_assert_str_eq(hg_ck_class.result(s), "kerak-lord");	/* 2 castles to 1 */
	hg_ck_class.free_state(s);
	hg_ck_unload(g);
	hg_diags_free(&d);
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* --------------------------------------------------------- notation */

/* Parses, formats, and compares with the canonical spelling. */
static void canonical(hg_state *s, const char *seat, const char *body, const char *want)
{
	hg_diags d;
	hg_diags_init(&d);
	hg_action_text t;
	hg_pos pos = { "test.hgn", 1, 1 };
	ck_assert_int_eq(hg_action_text_set(&t, seat, body, pos, &d), 0);
	hg_action *a = hg_ck_class.parse(s, &t, &d);
	dump(&d);
	ck_assert_ptr_nonnull(a);
	hg_buf bs, bb;
	hg_buf_init(&bs);
	hg_buf_init(&bb);
	hg_ck_class.format(s, a, &bs, &bb);
	hg_buf_printf(&bs, ": %s", bb.data);
	ck_assert_str_eq(bs.data, want);
	hg_buf_free(&bs);
	hg_buf_free(&bb);
	hg_ck_class.free_action(a);
	hg_action_text_free(&t);
	hg_diags_free(&d);
}

static void syntax_fails(hg_state *s, const char *seat, const char *body, const char *code)
{
	hg_diags d;
	hg_diags_init(&d);
	ck_assert_int_eq(act(s, seat, body, &d), -2);
	ck_assert_uint_ge(d.nerrors, 1);
	ck_assert_str_eq(d.v[0].code, code);
	hg_diags_free(&d);
}

/* As syntax_fails, the message quoting `quoted` (a number as written). */
static void quoting_fails(hg_state *s, const char *seat, const char *body, const char *code,
			  const char *quoted)
{
	hg_diags d;
	hg_diags_init(&d);
	ck_assert_int_eq(act(s, seat, body, &d), -2);
	ck_assert_uint_ge(d.nerrors, 1);
	ck_assert_str_eq(d.v[0].code, code);
	ck_assert_ptr_nonnull(strstr(d.v[0].message, quoted));
	hg_diags_free(&d);
}

START_TEST(notation_canonical_forms)
{
	hg_state *s = game4(NULL);
	canonical(s, "Antioch", "ATTACK Emesa FROM Laodicea WITH troop-2 t3 & Damascus leader defense / 1 3 4 4 6 = 3 vs 1 1 2 3 mod 2>4 3>4 = 2 / won bonus",
		  "antioquia: attack homs from latakia with tropa-2 tropa-3 & damasco lider defence / 1 3 4 4 6 = 3 vs 1 1 2 3 mod 2>4 3>4 = 2 / won bonus");
	canonical(s, "p3", "attack shaizar with tropa-3 / ? vs ? / won castle Antioquía",
		  "antioquia: attack shaizar with tropa-3 / ? vs ? / won castle antioquia");
	canonical(s, "damasco", "draw Líder tropa-2 ?", "damasco: draw lider tropa-2 ?");
	canonical(s, "damasco", "draw 7 ?", "damasco: draw 7 ?");
	canonical(s, "damasco", "draw 0", "damasco: draw 0");
	canonical(s, "jerusalem", "incursion damasco with t1 / 5 discards ?",
		  "jerusalen: incursion damasco with tropa-1 / 5 discards ?");
	/* a die written 0 stays 0 (the engine refuses it), '?' stays '?' */
	canonical(s, "jerusalem", "incursion damasco with t1 / 0",
		  "jerusalen: incursion damasco with tropa-1 / 0");
	canonical(s, "jerusalem", "incursion damasco with t1 / ?",
		  "jerusalen: incursion damasco with tropa-1 / ?");
	canonical(s, "alepo", "play raid on antioch discards tropa-2",
		  "alepo: play incursion on antioquia discards tropa-2");
	canonical(s, "alepo", "play walls at edessa", "alepo: play murallas at edesa");
	canonical(s, "alepo", "play mercenaries attack turbessel with t1 / 1 2 3 = 0 vs 4 5 = 2 / lost",
		  "alepo: play mercenarios attack turbessel with tropa-1 / 1 2 3 = 0 vs 4 5 = 2 / lost");
	canonical(s, "damasco", "pass end", "damasco: pass end");
	canonical(s, "damasco", "discard ?", "damasco: discard ?");
	/* keywords in capitals; numbers with leading zeros */
	canonical(s, "alepo", "PLAY Mercenaries ATTACK turbessel WITH t1 / 1 2 3 MOD 3>4 = 001 vs 4 5 = 2 / LOST",
		  "alepo: play mercenarios attack turbessel with tropa-1 / 1 2 3 mod 3>4 = 1 vs 4 5 = 2 / lost");
	canonical(s, "damasco", "attack homs with tropa-2 / 6 007 mod 0002 > 10 = 0999 vs ? Mod 1 > 2 / won bonus",
		  "damasco: attack homs with tropa-2 / 6 7 mod 2>10 = 999 vs ? mod 1>2 / won bonus");
	/* a number too large for its field is quoted as written, not clamped */
	quoting_fails(s, "damasco", "attack homs with tropa-2 / 6 4294967299 = 1 vs ? / won bonus",
		      "ck.die-range", "not 4294967299 ");
	quoting_fails(s, "damasco", "attack homs with tropa-2 / 6 1 mod 1 > 0100 = 1 vs ? / won bonus",
		      "ck.mod-die", "not 0100 ");
	quoting_fails(s, "damasco", "attack homs with tropa-2 / 6 1 = 99999999999999999999 vs ? / won",
		      "ck.hits-wrong", "not 99999999999999999999 ");
	quoting_fails(s, "damasco", "incursion alepo with tropa-1 / 100", "ck.die-range", "not 100 ");
	/* a keyword outside ASCII is compared as names are, without regard
	 * to case and accents (herald-notation(5), NAMES): U+017F (long s)
	 * folds to 's' */
	canonical(s, "damasco", "pa\u017fs", "damasco: pass");
	canonical(s, "damasco", "dr\u00e1w tropa-2", "damasco: draw tropa-2");
	syntax_fails(s, "damasco", "dr\u00e1wn tropa-2", "ck.syntax");
	syntax_fails(s, "damasco", "conquer homs", "ck.syntax");
	syntax_fails(s, "nobody", "pass", "ck.unknown-seat");
	syntax_fails(s, "damasco", "attack hooms with tropa-2 / 1 = 0 vs 1 2 3 = 0 / lost",
		     "ck.unknown-area");
	syntax_fails(s, "damasco", "discard lidder", "ck.unknown-card");
	syntax_fails(s, "damasco", "attack homs with ? / 1 = 0 vs 1 2 3 = 0 / lost", "ck.syntax");
	syntax_fails(s, "damasco", "attack homs with tropa-1 / 1 = 0 vs 1 2 3 = 0 / won castle",
		     "ck.syntax");
	hg_ck_class.free_state(s);
}
END_TEST

/* Every keyword in Spanish, as on the box and in the rules, reads as its
 * English one, and the writer writes the English one (the canonical
 * spelling). */
START_TEST(notation_spanish_keywords)
{
	hg_state *s = game4(NULL);
	canonical(s, "antioquia", "atacar homs desde latakia con tropa-2 tropa-3 & damasco lider defensa "
		  "gira antioquia / 1 3 4 4 6 = 3 contra 1 1 2 3 mod 2>4 3>4 = 2 / gana bonus",
		  "antioquia: attack homs from latakia with tropa-2 tropa-3 & damasco lider defence "
		  "turn antioquia / 1 3 4 4 6 = 3 vs 1 1 2 3 mod 2>4 3>4 = 2 / won bonus");
	canonical(s, "antioquia", "ATACAR homs con tropa-2 & jerusalen turcopolos ataque / ? Contra ? / "
		  "Gana Castillo shaizar",
		  "antioquia: attack homs with tropa-2 & jerusalen turcopolos attack / ? vs ? / won castle shaizar");
	canonical(s, "damasco", "atacar homs con tropa-2 / 1 = 0 contra 2 = 1 / pierde",
		  "damasco: attack homs with tropa-2 / 1 = 0 vs 2 = 1 / lost");
	canonical(s, "damasco", "robar Líder tropa-2 ?", "damasco: draw lider tropa-2 ?");
	canonical(s, "damasco", "Robar 7 ?", "damasco: draw 7 ?");
	canonical(s, "jerusalem", "incursión damasco con t1 / 5 descarta ?",
		  "jerusalen: incursion damasco with tropa-1 / 5 discards ?");
	canonical(s, "jerusalem", "INCURSIÓN damasco con t1", "jerusalen: incursion damasco with tropa-1");
	canonical(s, "alepo", "jugar incursión sobre antioquia descarta tropa-2",
		  "alepo: play incursion on antioquia discards tropa-2");
	canonical(s, "alepo", "jugar murallas en edesa", "alepo: play murallas at edesa");
	canonical(s, "alepo", "jugar judios roba tropa-1", "alepo: play judios draws tropa-1");
	canonical(s, "alepo", "jugar seduccion sobre antioquia toma tropa-2",
		  "alepo: play seduccion on antioquia takes tropa-2");
	canonical(s, "jerusalen", "jugar trovadores castillo tripoli", "jerusalen: play trovadores castle tripoli");
	canonical(s, "alepo", "jugar mercenarios atacar turbessel con t1 / 1 2 3 = 0 contra 4 5 = 2 / pierde",
		  "alepo: play mercenarios attack turbessel with tropa-1 / 1 2 3 = 0 vs 4 5 = 2 / lost");
	canonical(s, "damasco", "pasar fin", "damasco: pass end");
	canonical(s, "damasco", "pasar", "damasco: pass");
	canonical(s, "damasco", "descartar ?", "damasco: discard ?");
	/* a Spanish keyword ends a list as an English one does */
	syntax_fails(s, "damasco", "robar sobre", "ck.syntax");
	hg_ck_class.free_state(s);

	hg_diags d;
	hg_diags_init(&d);
	s = new_game("1\u00aa Cruzada", "Ana", NULL, &d);
	dump(&d);
	ck_assert_ptr_nonnull(s);
	canonical(s, "musulmanes", "revelar tropa-2 ej\u00e9rcito / 4", "musulmanes: reveal tropa-2 army / 4");
	canonical(s, "musulmanes", "revelar tropa-2 ejercito", "musulmanes: reveal tropa-2 army");
	canonical(s, "musulmanes", "revelar lider respuesta", "musulmanes: reveal lider response");
	canonical(s, "musulmanes", "revelar comercio descartada", "musulmanes: reveal comercio discarded");
	canonical(s, "musulmanes", "revelar murallas en jerusalen / 6",
		  "musulmanes: reveal murallas at jerusalen / 6");
	hg_ck_class.free_state(s);
	hg_diags_free(&d);
}
END_TEST

/* hg_action_text_is_ascii, by which the reader compares keywords byte for
 * byte or as names: for an action cut by hg_action_text_set, one a record
 * gathers (whose lexer learnt it), and one made by hand (looked at). */
START_TEST(action_text_says_whether_it_is_ascii)
{
	hg_diags d;
	hg_diags_init(&d);
	hg_pos pos = { "test.hgn", 1, 1 };
	hg_action_text t;
	ck_assert_int_eq(hg_action_text_set(&t, "damasco", "pass end", pos, &d), 0);
	ck_assert_int_eq(hg_action_text_is_ascii(&t), 1);
	hg_action_text_free(&t);
	ck_assert_int_eq(hg_action_text_set(&t, "jerusalen", "incursi\u00f3n damasco con tropa-1",
					    pos, &d), 0);
	ck_assert_int_eq(hg_action_text_is_ascii(&t), 0);
	hg_action_text_free(&t);

	static const char record[] =
		"[Game \"crusader-kingdoms\"]\n[Date \"????.??.??\"]\n"
		"[Players \"Ana; Ben; Cid; Dora\"]\n[Result \"*\"]\n"
		"[Scenario \"2nd-crusade\"]\n\n"
		"1. damasco: robar tropa-1 jerusalen: robar L\u00edder tropa-2\n*\n";
	hg_parser *p = hg_parser_open_mem("ascii.hgn", record, sizeof record - 1);
	hg_game_record *g;
	ck_assert_int_eq(hg_parser_next(p, &g, &d), 1);
	int seen = 0;
	for (size_t i = 0; i < g->moves.n; i++) {
		const hg_action_text *a = &g->moves.nodes[i].action;
		if (g->moves.nodes[i].kind != HG_NODE_ACTION)
			continue;
		ck_assert_int_eq(hg_action_text_is_ascii(a), seen++ == 0);
	}
	ck_assert_int_eq(seen, 2);
	hg_record_free(g);
	hg_parser_close(p);

	hg_action_text h;
	memset(&h, 0, sizeof h);
	h.text = (char *)"pass";
	h.len = 4;
	ck_assert_int_eq(hg_action_text_is_ascii(&h), 1);
	h.text = (char *)"pas\u00e1";
	h.len = strlen(h.text);
	ck_assert_int_eq(hg_action_text_is_ascii(&h), 0);
	ck_assert_uint_eq(d.n, 0);
	hg_diags_free(&d);
}
END_TEST

/* The scenario's name and titles as printed ("La era de Saladino", "2\u00aa
 * Cruzada") name it in the Scenario tag. */
START_TEST(scenario_printed_names)
{
	static const char *const names[] = { "La era de Saladino", "Era de Saladino", "saladino" };
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		hg_diags d;
		hg_diags_init(&d);
		hg_state *s = new_game(names[i], "Ana; Ben; Cid", NULL, &d);
		dump(&d);
		ck_assert_ptr_nonnull(s);
		hg_ck_class.free_state(s);
		hg_diags_free(&d);
	}
	hg_diags d;
	hg_diags_init(&d);
	hg_state *s = new_game("2\u00aa Cruzada", "Ana; Ben; Cid; Dora", NULL, &d);
	ck_assert_ptr_nonnull(s);
	hg_ck_class.free_state(s);
	s = new_game("La 2\u00aa cruzada", "Ana; Ben; Cid; Dora", NULL, &d);
	ck_assert_ptr_nonnull(s);
	hg_ck_class.free_state(s);
	ck_assert_uint_eq(d.n, 0);
	/* the printed name of the game, as the Game tag's value */
	ck_assert_ptr_eq(hg_game_find("Crusader Kingdoms"), &hg_ck_class);
	ck_assert_ptr_eq(hg_game_find("crusader kingdoms"), &hg_ck_class);
	hg_diags_free(&d);
}
END_TEST

/* ------------------------------------------------------ turn and bonus */

static const char *const draw8[] = {
	"draw lider tropa-1 tropa-1 tropa-2 tropa-2 tropa-3 comercio murallas",
	"draw tropa-1 tropa-2 tropa-2 tropa-3 tropa-3 turcopolos trovadores incursion",
	"draw tropa-2 tropa-3 tropa-1 tropa-1 tropa-2 peregrinos-armados espias asesinos",
	"draw tropa-4 tropa-2 tropa-2 tropa-3 lider incursion atalayas tregua",
};
static const char *const seats4[] = { "damasco", "jerusalen", "antioquia", "alepo" };

static hg_state *after_draws(void)
{
	hg_state *s = game4(NULL);
	for (int i = 0; i < 4; i++)
		act_ok(s, seats4[i], draw8[i]);
	return s;
}

START_TEST(section6_draw_example)
{
	/* "8 +1 bonus, -2 kept: draws 7 and starts with 9, bonus back to 0" */
	ck_assert_int_eq(hg_ck_draw_count(8, 1, 2), 7);
	ck_assert_int_eq(hg_ck_draw_count(8, -2, 0), 6);
	ck_assert_int_eq(hg_ck_draw_count(8, -2, 9), 0);

	/* The same through the engine: the end of turn 1 leaves Antioquía two
	 * cards and a bonus of +1. */
	hg_state *s = after_draws();
	int ant = faction(s, "antioquia");
	act_ok(s, "damasco", "pass");
	act_ok(s, "jerusalen", "pass");
	act_ok(s, "antioquia", "attack shaizar from antioquia with tropa-3 / 4 5 6 = 3 vs 1 2 = 0 / won bonus");
	ck_assert_int_eq(s->p[ant].bonus, 1);
	for (int i = 0; i < 5; i++) {
		act_ok(s, "alepo", "pass");
		act_ok(s, "damasco", "pass");
		act_ok(s, "jerusalen", "pass");
		if (s->p[ant].hand.size > 2)
			act_ok(s, "antioquia", "discard ?");
		else
			break;
	}
	ck_assert_int_eq(s->p[ant].hand.size, 2);
	act_ok(s, "alepo", "pass");
	act_ok(s, "damasco", "pass");
	act_ok(s, "jerusalen", "pass");
	act_ok(s, "antioquia", "pass end");
	ck_assert_int_eq(s->turn, 2);
	ck_assert_int_eq(s->phase, CK_PHASE_DRAW);
	act_ok(s, "damasco", "draw ?");
	act_ok(s, "jerusalen", "draw ?");
	act_fails(s, "antioquia", "draw 8 ?", "ck.draw-count");
	act_ok(s, "antioquia", "draw 7 ?");
	ck_assert_int_eq(s->p[ant].hand.size, 9);
	ck_assert_int_eq(s->p[ant].bonus, 1);	/* reset once everyone has drawn */
	act_ok(s, "alepo", "draw ?");
	ck_assert_int_eq(s->p[ant].bonus, 0);
	ck_assert_int_eq(s->phase, CK_PHASE_ROUNDS);
	hg_ck_class.free_state(s);
}
END_TEST

START_TEST(turn_order_and_draws)
{
	hg_state *s = game4(NULL);
	act_fails(s, "jerusalen", "draw ?", "ck.not-your-round");
	act_fails(s, "damasco", "pass", "ck.draw-expected");
	act_fails(s, "damasco", "draw lider lider lider tropa-1 tropa-1 tropa-1 tropa-1 tropa-1",
		  "ck.card-exhausted");
	act_fails(s, "damasco", "draw lider", "ck.draw-count");
	act_fails(s, "damasco", "draw turcopolos tropa-1 tropa-1 tropa-1 tropa-2 tropa-2 tropa-2 tropa-2",
		  "ck.unknown-card");
	for (int i = 0; i < 4; i++)
		act_ok(s, seats4[i], draw8[i]);
	act_fails(s, "damasco", "draw ?", "ck.draw-unexpected");
	act_fails(s, "jerusalen", "pass", "ck.not-your-round");
	act_fails(s, "damasco", "discard turcopolos", "ck.card-not-in-hand");
	act_fails(s, "damasco", "pass end", "ck.end-wrong");
	act_ok(s, "damasco", "discard tropa-1");
	hg_ck_class.free_state(s);
}
END_TEST

/* ------------------------------------------------- the worked example */

/* Section 4's position: Antioquía (bonus +1) holds troops 2 and 3 and
 * Latakia; Damasco (bonus 0) holds Líder and Homs with a +1 castle. */
static hg_state *example_position(void)
{
	hg_state *s = game4(NULL);
	int ant = faction(s, "antioquia"), dam = faction(s, "damasco");
	s->phase = CK_PHASE_ROUNDS;
	s->cursor = ant;
	s->pile[CK_MUSLIM].n -= 1;
	s->pile[CK_CHRISTIAN].n -= 2;
	hg_ck_hand_add(&s->p[ant].hand, CK_CHRISTIAN, card(CK_CHRISTIAN, "tropa-2"));
	hg_ck_hand_add(&s->p[ant].hand, CK_CHRISTIAN, card(CK_CHRISTIAN, "tropa-3"));
	hg_ck_hand_add(&s->p[dam].hand, CK_MUSLIM, card(CK_MUSLIM, "lider"));
	s->plus1[area("homs")] = 1;
	s->p[ant].bonus = 1;
	return s;
}

#define EXAMPLE_HEAD "attack homs from latakia with tropa-2 tropa-3 & damasco lider defence / "

START_TEST(worked_combat_example)
{
	hg_state *s = example_position();
	int ant = faction(s, "antioquia"), dam = faction(s, "damasco"), homs = area("homs");
	act_ok(s, "antioquia", EXAMPLE_HEAD "1 3 4 4 6 = 3 vs 1 1 2 3 mod 2>4 3>4 = 2 / won bonus");
	ck_assert_int_eq(s->owner[homs], ant);
	ck_assert_int_eq(s->plus1[homs], 0);		/* regular side */
	ck_assert_int_eq(s->p[dam].bonus, -1);		/* 0 to -1 */
	ck_assert_int_eq(s->p[ant].bonus, 2);		/* 1 to 2 */
	ck_assert_int_eq(s->p[ant].hand.size, 0);
	ck_assert_int_eq(s->p[dam].hand.size, 0);
	ck_assert_int_eq(s->pile[CK_CHRISTIAN].ndiscard, 2);
	ck_assert_int_eq(s->pile[CK_MUSLIM].ndiscard, 1);
	ck_assert_int_eq(hg_ck_castles_on_map(s, ant), 3);
	ck_assert_int_eq(hg_ck_castles_on_map(s, dam), 1);
	hg_ck_class.free_state(s);
}
END_TEST

START_TEST(worked_example_variants)
{
	hg_state *s = example_position();
	/* a wrong hit count */
	act_fails(s, "antioquia", EXAMPLE_HEAD "1 3 4 4 6 = 2 vs 1 1 2 3 mod 2>4 3>4 = 2 / won bonus",
		  "ck.hits-wrong");
	act_fails(s, "antioquia", EXAMPLE_HEAD "1 3 4 4 6 = 3 vs 1 1 2 3 mod 2>4 3>4 = 1 / won bonus",
		  "ck.hits-wrong");
	/* a wrong number of dice */
	act_fails(s, "antioquia", EXAMPLE_HEAD "3 4 4 6 = 3 vs 1 1 2 3 mod 2>4 3>4 = 2 / won bonus",
		  "ck.dice-count");
	act_fails(s, "antioquia", EXAMPLE_HEAD "1 3 4 4 6 = 3 vs 1 2 3 mod 2>4 3>4 = 2 / won bonus",
		  "ck.dice-count");
	/* Líder adding 4 points */
	act_fails(s, "antioquia", EXAMPLE_HEAD "1 3 4 4 6 = 3 vs 1 1 2 3 mod 2>4 3>5 = 2 / won bonus",
		  "ck.mod-points");
	/* the defender winning */
	act_fails(s, "antioquia", EXAMPLE_HEAD "1 3 4 4 6 = 3 vs 1 1 2 3 mod 2>4 3>4 = 2 / lost",
		  "ck.outcome-wrong");
	/* and more: a die no one rolled, a modification without Líder, a die
	 * past 6, the choice missing, the castle of another, a card not held */
	act_fails(s, "antioquia", EXAMPLE_HEAD "1 3 4 4 7 = 3 vs 1 1 2 3 mod 2>4 3>4 = 2 / won bonus",
		  "ck.die-range");
	act_fails(s, "antioquia", "attack homs from latakia with tropa-2 tropa-3 / 1 3 4 4 6 = 3 vs 1 1 2 3 mod 2>4 = 1 / won bonus",
		  "ck.mod-missing");
	act_fails(s, "antioquia", EXAMPLE_HEAD "1 3 4 4 6 = 3 vs 1 1 2 3 mod 5>6 = 0 / won bonus",
		  "ck.mod-die");
	act_fails(s, "antioquia", EXAMPLE_HEAD "1 3 4 4 6 = 3 vs 1 1 2 3 mod 2>4 3>4 = 2 / won",
		  "ck.choice");
	act_fails(s, "antioquia", EXAMPLE_HEAD "1 3 4 4 6 = 3 vs 1 1 2 3 mod 2>4 3>4 = 2 / won castle damasco",
		  "ck.choice");
	act_fails(s, "antioquia", "attack homs from latakia with tropa-2 tropa-3 tropa-3 / 1 3 4 4 6 1 2 3 = 3 vs 1 1 2 3 = 0 / won bonus",
		  "ck.card-not-in-hand");
	act_fails(s, "antioquia", "attack homs from antioquia with tropa-2 tropa-3 / 1 3 4 4 6 = 3 vs 1 1 2 3 = 0 / won bonus",
		  "ck.attack-from");
	act_fails(s, "antioquia", "attack damasco with tropa-2 tropa-3 / 1 3 4 4 6 = 3 vs 1 1 2 = 0 / won bonus",
		  "ck.attack-border");
	act_fails(s, "antioquia", "attack latakia with tropa-2 / 1 3 = 0 vs 1 1 = 0 / lost",
		  "ck.attack-own");
	act_fails(s, "antioquia", "attack homs from latakia with tropa-2 tropa-3 & damasco lider defence turn damasco / 1 3 4 4 6 = 3 vs 1 1 2 3 4 mod 2>4 3>4 = 3 / lost",
		  "ck.turn-castle");
	act_fails(s, "antioquia", "attack homs with tropa-2 tropa-3 & damasco tropa-2 defence / 1 3 4 4 6 = 3 vs 1 1 2 3 = 0 / won bonus",
		  "ck.card-not-in-hand");
	/* with the +1 castle of Damasco turned for the defence: one more die */
	s->plus1[area("damasco")] = 1;
	act_ok(s, "antioquia", "attack homs from latakia with tropa-2 tropa-3 & damasco lider defence turn damasco / 1 3 4 4 6 = 3 vs 1 1 2 3 4 mod 2>4 3>4 = 3 / lost");
	ck_assert_int_eq(s->plus1[area("damasco")], 0);
	ck_assert_int_eq(s->owner[area("homs")], faction(s, "damasco"));
	hg_ck_class.free_state(s);
}
END_TEST

START_TEST(bonus_limits)
{
	hg_state *s = example_position();
	int ant = faction(s, "antioquia");
	s->p[ant].bonus = 2;
	/* at +2 a gain becomes a castle turned to +1 (rule 6) */
	act_fails(s, "antioquia", EXAMPLE_HEAD "1 3 4 4 6 = 3 vs 1 1 2 3 mod 2>4 3>4 = 2 / won bonus",
		  "ck.bonus-limit");
	act_ok(s, "antioquia", EXAMPLE_HEAD "1 3 4 4 6 = 3 vs 1 1 2 3 mod 2>4 3>4 = 2 / won castle homs");
	ck_assert_int_eq(s->plus1[area("homs")], 1);
	ck_assert_int_eq(s->p[ant].bonus, 2);
	/* a loss below -2 is ignored */
	hg_ck_bonus_lose(s, ant, 7);
	ck_assert_int_eq(s->p[ant].bonus, -2);
	hg_ck_class.free_state(s);
}
END_TEST

/* ------------------------------------------- incursions and events */

START_TEST(incursions)
{
	hg_state *s = after_draws();
	act_ok(s, "damasco", "pass");
	/* Jerusalén (Jerusalén, Acre) borders no other player at the start */
	act_fails(s, "jerusalen", "incursion damasco with tropa-1 / 5 discards ?",
		  "ck.incursion-border");
	act_ok(s, "jerusalen", "pass");
	act_fails(s, "antioquia", "incursion antioquia with tropa-1 / 5 discards ?", "ck.target");
	act_fails(s, "antioquia", "incursion damasco with espias / 5 discards ?", "ck.card-kind");
	act_fails(s, "antioquia", "incursion damasco with tropa-1 / 3 discards lider",
		  "ck.random-count");
	act_fails(s, "antioquia", "incursion damasco with tropa-1 / 5", "ck.random-count");
	act_fails(s, "antioquia", "incursion damasco with tropa-1 / 5 discards tropa-4",
		  "ck.card-not-in-hand");
	act_fails(s, "antioquia", "incursion damasco with tropa-1", "ck.dice-missing");
	act_fails(s, "antioquia", "incursion damasco with tropa-1 / 7 discards lider",
		  "ck.die-range");
	int dam = faction(s, "damasco"), ant = faction(s, "antioquia");
	act_ok(s, "antioquia", "incursion damasco with tropa-1 / 5 discards lider");
	ck_assert_int_eq(s->p[dam].hand.size, 7);
	ck_assert_int_eq(s->p[ant].hand.size, 7);
	ck_assert_int_eq(hg_ck_hand_sure(&s->p[dam].hand, CK_MUSLIM, card(CK_MUSLIM, "lider")), 0);
	act_ok(s, "alepo", "incursion antioquia with tropa-2 / 2");
	ck_assert_int_eq(s->p[ant].hand.size, 7);
	hg_ck_class.free_state(s);
}
END_TEST

START_TEST(events)
{
	hg_state *s = after_draws();
	int dam = faction(s, "damasco"), ale = faction(s, "alepo");
	act_fails(s, "damasco", "play comercio on alepo", "ck.event-args");
	act_fails(s, "damasco", "play tropa-2", "ck.card-kind");
	act_ok(s, "damasco", "play comercio");
	ck_assert_int_eq(s->p[dam].bonus, 1);
	act_ok(s, "jerusalen", "play trovadores");
	act_ok(s, "antioquia", "play asesinos on damasco");
	ck_assert_int_eq(s->p[dam].bonus, 0);
	act_fails(s, "alepo", "play tregua on alepo", "ck.target");
	act_ok(s, "alepo", "play tregua on jerusalen");
	act_fails(s, "damasco", "play murallas at acre", "ck.flip");
	act_ok(s, "damasco", "play murallas at homs");
	ck_assert_int_eq(s->plus1[area("homs")], 1);
	/* in truce with Alepo, Jerusalén may not raid it (nor attack it) */
	act_ok(s, "jerusalen", "play incursion on alepo discards tropa-3");
	act_ok(s, "antioquia", "play espias on alepo discards lider");
	ck_assert_int_eq(hg_ck_hand_sure(&s->p[ale].hand, CK_MUSLIM, card(CK_MUSLIM, "lider")), 0);
	act_ok(s, "alepo", "play atalayas");
	ck_assert_int_eq(hg_ck_persistent_defence(s, ale), 1);
	ck_assert_int_eq(s->nfaceup, 2);
	ck_assert(hg_ck_truce_between(s, ale, faction(s, "jerusalen")));
	hg_ck_class.free_state(s);
}
END_TEST

/* --------------------------------------------------------- the end */

START_TEST(final_result_and_ties)
{
	hg_state *s = game4(NULL);
	int dam = faction(s, "damasco"), ale = faction(s, "alepo"), jer = faction(s, "jerusalen");
	hg_ck_final_result(s);		/* 2 castles each, bonus 0 each: all share */
	ck_assert_str_eq(hg_ck_class.result(s), "damasco, jerusalen, antioquia, alepo");
	s->phase = CK_PHASE_ROUNDS;
	s->p[ale].bonus = 1;
	s->p[dam].bonus = 1;
	hg_ck_final_result(s);		/* a tie broken by the bonus, still two */
	ck_assert_str_eq(hg_ck_class.result(s), "damasco, alepo");
	hg_ck_set_owner(s, area("kerak"), jer);
	hg_ck_final_result(s);		/* most castles */
	ck_assert_str_eq(hg_ck_class.result(s), "jerusalen");
	/* sudden victory: all seven castles on the map */
	s->phase = CK_PHASE_ROUNDS;
	const char *more[] = { "ascalon", "tiro", "banias" };
	for (int i = 0; i < 3; i++)
		hg_ck_set_owner(s, area(more[i]), jer);
	hg_ck_check_sudden(s, jer);
	ck_assert_ptr_null(hg_ck_class.result(s));
	hg_ck_set_owner(s, area("beirut"), jer);
	hg_ck_check_sudden(s, jer);
	ck_assert_str_eq(hg_ck_class.result(s), "jerusalen");
	hg_ck_class.free_state(s);
}
END_TEST

START_TEST(saladin_christians_do_not_attack_each_other)
{
	hg_diags d;
	hg_diags_init(&d);
	hg_state *s = new_game(NULL, "Ana; Ben; Cid", NULL, &d);	/* 3 players: Saladin */
	ck_assert_ptr_nonnull(s);
	ck_assert_str_eq(s->sc->id, "saladin");
	act_ok(s, "saladino", "draw ?");
	act_ok(s, "jerusalen", "draw tropa-3 tropa-3 tropa-3 tropa-2 tropa-2 tropa-2 tropa-1 tropa-1");
	act_ok(s, "antioquia", "draw ?");
	act_ok(s, "saladino", "pass");
	hg_ck_set_owner(s, area("tiro"), faction(s, "antioquia"));
	act_fails(s, "jerusalen", "attack tiro with tropa-3 / 1 2 3 = 0 vs 1 2 3 = 0 / lost",
		  "ck.attack-ally");
	act_ok(s, "jerusalen", "attack banias with tropa-3 / 1 2 3 = 0 vs 1 2 = 0 / lost");
	hg_ck_class.free_state(s);
	/* setup problems */
	s = new_game("2nd-crusade", "Ana; Ben; Cid", NULL, &d);
	ck_assert_ptr_null(s);
	ck_assert_str_eq(d.v[d.n - 1].code, "ck.players");
	s = new_game("fourth-crusade", "Ana", NULL, &d);
	ck_assert_ptr_null(s);
	ck_assert_str_eq(d.v[d.n - 1].code, "ck.scenario");
	hg_diags_free(&d);
}
END_TEST

/* Hidden cards: checked as far as they can be, the rest unverified. */
START_TEST(hidden_cards_are_unverified)
{
	hg_state *s = game4(NULL);
	for (int i = 0; i < 4; i++)
		act_ok(s, seats4[i], "draw ?");
	hg_diags d;
	hg_diags_init(&d);
	ck_assert_int_eq(act(s, "damasco", "discard lider", &d), 0);
	ck_assert_uint_eq(d.nerrors, 0);
	ck_assert_uint_eq(d.nunverified, 1);
	ck_assert_str_eq(d.v[0].code, "ck.hidden-card");
	hg_diags_free(&d);
	act_ok(s, "jerusalen", "discard ?");
	hg_ck_class.free_state(s);
}
END_TEST

/* ------------------------------------------------- random legal games */

/* The hand of scripted side f is what a scan of its stack says: the known
 * cards sure, the others wild, no pool. */
static void hand_is_the_stacks_view(const hg_state *s, int f)
{
	ck_hand scan;
	memset(&scan, 0, sizeof scan);
	const ck_tableau *t = &s->p[f].tab;
	for (int i = 0; i < t->nstack; i++) {
		if (t->stack[i].card == CK_UNKNOWN)
			scan.wild++;
		else
			scan.sure[t->stack[i].religion][t->stack[i].card]++;
	}
	scan.size = t->nstack;
	ck_assert(memcmp(&scan, &s->p[f].hand, sizeof scan) == 0);
}

/* Plays a game picking uniformly among legal(); each action is written,
 * read back and applied to a second position, as `herald check` would. */
/* The legal actions of s in *l, and one of them, picked with `pick`,
 * written into seat and body (free_legal() frees the list). */
static hg_action *pick_legal(hg_state *s, hg_prng *pick, hg_action_list *l, hg_buf *seat,
			     hg_buf *body)
{
	l->v = NULL;
	l->n = l->cap = 0;
	hg_ck_class.legal(s, l);
	ck_assert_uint_gt(l->n, 0);
	hg_action *a = l->v[hg_prng_below(pick, (uint32_t)l->n)];
	hg_buf_clear(seat);
	hg_buf_clear(body);
	hg_ck_class.format(s, a, seat, body);
	return a;
}

static void free_legal(hg_action_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		hg_ck_class.free_action(l->v[i]);
	free(l->v);
}

static void random_game(const char *scenario, const char *players, const char *seed)
{
	hg_diags d;
	hg_diags_init(&d);
	hg_state *s = new_game(scenario, players, seed, &d);
	hg_state *check = new_game(scenario, players, seed, &d);
	ck_assert_ptr_nonnull(s);
	hg_prng pick;
	hg_prng_seed(&pick, seed ? seed : players);
	size_t steps = 0;
	hg_buf seat, body;
	hg_buf_init(&seat);
	hg_buf_init(&body);
	while (!hg_ck_class.result(s)) {
		ck_assert_uint_lt(++steps, 20000);
		hg_action_list l;
		hg_action *a = pick_legal(s, &pick, &l, &seat, &body);
		int rc = hg_ck_class.apply(s, a, &d);
		if (rc != 0 || d.nerrors || (seed && d.n)) {
			fprintf(stderr, "%s: %s\n", seat.data, body.data);
			dump(&d);
		}
		ck_assert_int_eq(rc, 0);
		ck_assert_int_eq(act(check, seat.data, body.data, &d), 0);
		/* with a Seed nothing is hidden; without, hidden is unverified */
		ck_assert_uint_eq(d.nerrors, 0);
		if (seed)
			ck_assert_uint_eq(d.n, 0);
		hg_diags_clear(&d);
		ck_assert(same_state(s, check));
		/* held[] says what a scan of owner[] says */
		for (int f = 0; f < CK_MAX_SIDES; f++)
			ck_assert_uint_eq(s->held[f], hg_ck_areas_scan(s, f));
		/* a scripted side's hand is the view of its face-down cards
		 * (a reveal takes one count off it, ck_stack_reveal_top,
		 * rather than rebuild it) */
		for (int f = 0; f < s->nsides; f++)
			if (!s->sc->factions[f].player)
				hand_is_the_stacks_view(s, f);
		/* sumpool is the sum of the pool's bounds (normalise trusts it) */
		for (int f = 0; f < s->nsides; f++) {
			const ck_hand *h = &s->p[f].hand;
			int sum = 0;
			for (int r = 0; r < CK_NRELIGIONS; r++)
				for (int c = 0; c < CK_MAX_CARDS; c++)
					sum += h->pool[r][c];
			ck_assert_int_eq(h->sumpool, sum);
		}
		free_legal(&l);
	}
	hg_buf out;
	hg_buf_init(&out);
	hg_ck_class.render(s, &out);
	ck_assert_ptr_nonnull(strstr(out.data, "game over"));
	hg_buf_free(&out);
	hg_buf_free(&seat);
	hg_buf_free(&body);
	hg_ck_class.free_state(s);
	hg_ck_class.free_state(check);
	hg_diags_free(&d);
}

START_TEST(random_games_4p)
{
	char seed[32];
	snprintf(seed, sizeof seed, "unit-4p-%d", _i);
	random_game("2nd-crusade", "A; B; C; D", seed);
}
END_TEST

START_TEST(random_games_3p)
{
	char seed[32];
	snprintf(seed, sizeof seed, "unit-3p-%d", _i);
	random_game("saladin", "A; B; C", seed);
}
END_TEST

/* Without a Seed, legal() writes the chance as '?': still legal. */
START_TEST(random_games_unseeded)
{
	random_game(_i % 2 ? "saladin" : "2nd-crusade",
		    _i % 2 ? "A; B; C" : "A; B; C; D", NULL);
}
END_TEST


/* ------------------------------------------------------- section 8 */

static const ck_map *map8(void)
{
	for (int i = 0; i < shared->nmaps; i++)
		if (strcmp(shared->maps[i].id, "cruzadas") == 0)
			return &shared->maps[i];
	ck_abort_msg("no map 'cruzadas'");
	return NULL;
}

static int area8(const char *id)
{
	int a = hg_names_find(map8()->names, id);
	ck_assert_int_ge(a, 0);
	return a;
}

static const ck_scenario *scenario(const char *id)
{
	int i = hg_names_find(shared->scenario_names, id);
	ck_assert_int_ge(i, 0);
	return &shared->scenarios[i];
}

START_TEST(section8_data)
{
	/* The map: 14 areas numbered 1 to 14, each with victory points. */
	const ck_map *m = map8();
	ck_assert_int_eq(m->nareas, 14);
	uint64_t seen = 0;
	for (int a = 0; a < m->nareas; a++) {
		ck_assert_int_ge(m->areas[a].number, 1);
		ck_assert_int_le(m->areas[a].number, 14);
		seen |= (uint64_t)1 << (m->areas[a].number - 1);
		ck_assert_int_gt(m->areas[a].points, 0);
	}
	ck_assert_uint_eq(seen, (1u << 14) - 1);
	/* The text's facts (8.1, 8.3): Jerusalén is number 1; Turbessel
	 * borders Edesa and Alepo, and its number is below Antioquía's. */
	const ck_area *v = m->areas;
	ck_assert_int_eq(v[area8("Jerusalem")].number, 1);
	int tur = area8("turbessel");
	ck_assert(v[tur].adj >> area8("edesa") & 1);
	ck_assert(v[tur].adj >> area8("alepo") & 1);
	ck_assert_int_lt(v[tur].number, v[area8("antioquia")].number);
	area8("tripoli");
	area8("marat");
	/* The scenarios of 8.1. */
	const ck_scenario *solo = scenario("1st-crusade"), *coop = scenario("tercera-cruzada");
	ck_assert_int_eq(solo->players, 1);
	ck_assert_int_eq(coop->players, 2);
	ck_assert_str_eq(solo->factions[0].id, "cruzada");
	ck_assert(solo->factions[0].deploy >> area8("marat") & 1);
	ck_assert_str_eq(coop->factions[0].id, "ricardo");
	ck_assert(coop->factions[0].deploy >> area8("tripoli") & 1);
	ck_assert(coop->factions[1].deploy >> area8("antioquia") & 1);
	ck_assert_int_eq(coop->factions[0].cards, 8);
	ck_assert_int_eq(coop->factions[1].cards, 8);
	ck_assert_int_eq(solo->factions[1].cards, 8);
	for (int k = 0; k < 2; k++) {
		const ck_scenario *sc = k ? coop : solo;
		const ck_faction *mus = &sc->factions[sc->nfactions - 1];
		ck_assert(!mus->player);
		ck_assert_int_eq(mus->religion, CK_MUSLIM);
		/* every other area is Muslim */
		ck_assert_int_eq(__builtin_popcountll(mus->deploy), 14 - sc->players);
		ck_assert(sc->scripted && sc->final_pass && !sc->bonus_from_conquest);
		ck_assert_int_eq(sc->nlevels, 3);
		ck_assert_int_eq(sc->levels[0].from, 15);
		ck_assert_int_eq(sc->levels[1].from, 11);
		/* 8.1: the cards removed */
		static const char *const muslim[] = {
			"mercenarios", "campana-menor", "judios", "sucesion", "atalayas", "tregua", NULL
		};
		static const char *const christian[] = {
			"ataque-conjunto", "asesinos", "trovadores", "espias", NULL
		};
		for (int i = 0; muslim[i]; i++) {
			int c = card(CK_MUSLIM, muslim[i]);
			ck_assert_int_eq(sc->removed[CK_MUSLIM][c], shared->decks[CK_MUSLIM].cards[c].copies);
		}
		for (int i = 0; christian[i]; i++) {
			int c = card(CK_CHRISTIAN, christian[i]);
			ck_assert_int_eq(sc->removed[CK_CHRISTIAN][c],
					 shared->decks[CK_CHRISTIAN].cards[c].copies);
		}
		ck_assert_int_eq(sc->removed[CK_MUSLIM][card(CK_MUSLIM, "tropa-4")], 1);
		ck_assert_int_eq(sc->removed[CK_MUSLIM][card(CK_MUSLIM, "lider")], 0);
	}
	/* 8.2: in the cooperative game each crusader's round is followed by a
	 * Muslim round played against that crusader */
	ck_assert_int_eq(coop->norder, 4);
	ck_assert_int_eq(coop->against[1], 0);
	ck_assert_int_eq(coop->against[3], 1);
	ck_assert_int_eq(coop->against[0], -1);
	/* ruling 37: the text keeps no crusader from striking the other */
	ck_assert(!coop->allies[CK_CHRISTIAN]);
	/* ruling 32: the shipped scenarios state herald's choice */
	ck_assert(!coop->script_turns_castles);
	ck_assert(coop->script_leader_rule);
	/* 8.4: Líder and Reagrupamiento join the army */
	ck_assert_int_eq(shared->decks[CK_MUSLIM].cards[card(CK_MUSLIM, "lider")].script,
			 CK_SP_ARMY_OR_RESPONSE);
	ck_assert_int_eq(shared->decks[CK_MUSLIM].cards[card(CK_MUSLIM, "reagrupamiento")].script,
			 CK_SP_ARMY_OR_DISCARD);
}
END_TEST

/* A scenarios file of one's own with a scripted side; the first error. */
static char *load_scripted(const char *map, const char *extra)
{
	char dir[] = "/tmp/ck-test-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char path[256];
	snprintf(path, sizeof path, "%s/scenarios.yaml", dir);
	FILE *f = fopen(path, "w");
	fprintf(f, "maps: [%s, %s]\ndecks: [%s, %s]\n", DATA "map-saladino.yaml",
		DATA "map-cruzadas.yaml", DATA "deck-muslim.yaml", DATA "deck-christian.yaml");
	fprintf(f, "scenarios:\n"
		"  - id: solo\n    players: 1\n    map: %s\n    turns: 3\n%s"
		"    factions:\n"
		"      - {id: c, religion: christian, castles: 9, deploy: [antioquia], cards: 8}\n"
		"      - {id: m, religion: muslim, castles: 9, deploy: rest, cards: 8, player: false}\n",
		map, extra);
	fclose(f);
	hg_diags d;
	hg_diags_init(&d);
	hg_gdata *g = hg_ck_load_files(path, NULL, 0, NULL, 0, &d);
	char *code = hg_xstrdup(d.nerrors ? d.v[0].code : "");
	ck_assert(g ? d.nerrors == 0 : d.nerrors > 0);
	hg_ck_unload(g);
	hg_diags_free(&d);
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
	return code;
}

static void expect_scripted(const char *map, const char *extra, const char *code)
{
	char *got = load_scripted(map, extra);
	ck_assert_str_eq(got, code);
	free(got);
}

#define REMOVED8 "    removed: {muslim: [tropa-4, mercenarios, campana-menor, judios, sucesion, atalayas, tregua]}\n"

START_TEST(section8_loader)
{
	expect_scripted("cruzadas", "    bonus-from-conquest: false\n" REMOVED8, "");
	/* the script needs identification numbers */
	expect_scripted("saladino", "    bonus-from-conquest: false\n" REMOVED8, "data.reference");
	/* ... and cannot play Mercenarios (an attack of its own) */
	expect_scripted("cruzadas", "    bonus-from-conquest: false\n"
			"    removed: {muslim: [tropa-4, campana-menor, judios, sucesion, atalayas, tregua]}\n",
			"data.range");
	/* ... and moves the bonus by events only (8.2) */
	expect_scripted("cruzadas", REMOVED8, "data.range");
	/* victory levels: from the highest down, the last without 'from' */
	expect_scripted("cruzadas", "    bonus-from-conquest: false\n" REMOVED8
			"    victory-points: [{level: win, from: 10}, {level: loss}]\n", "");
	expect_scripted("cruzadas", "    bonus-from-conquest: false\n" REMOVED8
			"    victory-points: [{level: win, from: 10}, {level: meh, from: 12}, {level: loss}]\n",
			"data.range");
	expect_scripted("cruzadas", "    bonus-from-conquest: false\n" REMOVED8
			"    victory-points: [{level: win, from: 10}, {level: loss, from: 3}]\n",
			"data.unknown-key");
	expect_scripted("cruzadas", "    bonus-from-conquest: false\n" REMOVED8
			"    victory-points: [{level: win}, {level: loss}]\n", "data.missing-key");
	/* `script` is a response's key */
	expect_deck("  - {id: t, type: troop, strength: 1, copies: 1, script: response}\n",
		    "data.unknown-key");
	expect_deck("  - {id: r, type: response, sides: [attack], copies: 1, script: army, effects: [{dice: 1}]}\n",
		    "data.range");
	/* victory points need a number */
	expect_map(MAP_HEAD "  - {id: x, points: 2, defence: 1, adjacent: []}\n  - {id: z, defence: 3, adjacent: []}\n",
		   "data.missing-key");
}
END_TEST

static hg_state *game8(const char *scenario_id, const char *players, const char *seed)
{
	hg_diags d;
	hg_diags_init(&d);
	hg_state *s = new_game(scenario_id, players, seed, &d);
	dump(&d);
	ck_assert_ptr_nonnull(s);
	hg_diags_free(&d);
	return s;
}

/* The 2-player game up to the worked example of 8.3 (the record
 * records/crusader-kingdoms/valid/worked-script-example.hgn). */
static const char *const example8[][2] = {
	{ "ricardo", "draw tropa-4 tropa-3 tropa-3 tropa-2 tropa-2 tropa-1 peregrinos-armados incursion" },
	{ "leopoldo", "draw tropa-4 tropa-3 tropa-2 tropa-2 tropa-1 turcopolos tropa-1 tropa-2" },
	{ "musulmanes", "draw tropa-2 comercio murallas incursion murallas tropa-2 tropa-3 lider" },
	{ "ricardo", "attack tiro from tripoli with tropa-4 / 5 2 6 4 = 3 vs 1 5 3 = 1 / won" },
	{ "musulmanes", "reveal tropa-2 army / 4" },
	{ "leopoldo", "attack turbessel from antioquia with tropa-3 / 6 4 1 = 2 vs 2 3 = 0 / won" },
	{ "musulmanes", "reveal comercio / 5" },
	{ "ricardo", "attack acre from tiro with tropa-3 tropa-2 / 4 6 2 5 1 = 3 vs 3 4 = 1 / won" },
	{ "musulmanes", "reveal murallas at jerusalen / 6" },
	{ "leopoldo", "attack latakia from antioquia with tropa-2 / 2 3 = 0 vs 5 1 = 1 / lost" },
	{ "musulmanes", "reveal incursion on leopoldo discards tropa-1 / 5" },
	{ "ricardo", "attack jerusalen from acre with tropa-3 tropa-2 tropa-1 / 6 5 4 4 2 1 = 4 vs 1 2 3 5 = 1 / won" },
	{ "musulmanes", "reveal murallas at jaffa / 2" },
	{ "leopoldo", "attack alepo from turbessel with tropa-4 / 1 2 3 3 = 0 vs 6 4 4 = 3 / lost" },
};

static hg_state *example8_position(void)
{
	hg_state *s = game8("3rd-crusade", "Ricardo; Leopoldo", NULL);
	for (size_t i = 0; i < sizeof example8 / sizeof example8[0]; i++)
		act_ok(s, example8[i][0], example8[i][1]);
	return s;
}

START_TEST(worked_script_example)
{
	hg_state *s = example8_position();
	int mus = faction(s, "musulmanes"), leo = faction(s, "leopoldo"), ric = faction(s, "ricardo");
	/* Leopoldo has made his round; the Muslim round is against him. */
	ck_assert_str_eq(hg_ck_class.to_move(s), "musulmanes");
	ck_assert_int_eq(s->sc->against[s->cursor], leo);
	ck_assert_int_eq(s->owner[area8("jerusalen")], ric);
	ck_assert_int_eq(hg_ck_army_strength(s, mus), 2);
	ck_assert_int_eq(hg_ck_script_target(s, mus, leo), area8("turbessel"));
	ck_assert_int_eq(hg_ck_script_target(s, mus, ric), area8("jerusalen"));
	/* next: one round, the script's, with the die unknown */
	hg_action_list l = { NULL, 0, 0 };
	hg_ck_class.legal(s, &l);
	ck_assert_uint_gt(l.n, 1);
	for (size_t i = 0; i < l.n; i++) {
		ck_assert_int_eq(l.v[i]->kind, CK_ACT_REVEAL);
		ck_assert_int_eq(l.v[i]->rev.place, CK_PLACE_ARMY);
		if (l.v[i]->rev.has_attack)
			ck_assert_int_eq(l.v[i]->rev.attack.target, area8("turbessel"));
		hg_ck_class.free_action(l.v[i]);
	}
	free(l.v);
	/* the variants: Jerusalén, an attack on a 4, no attack on a 3 */
	act_fails(s, "musulmanes", "reveal tropa-2 army / 3 attack jerusalen from jaffa / 4 2 1 5 = 2 vs 6 4 1 = 2 / lost",
		  "ck.script-target");
	act_fails(s, "musulmanes", "reveal tropa-2 army / 4 attack turbessel from edesa / 4 2 1 5 = 2 vs 6 4 = 2 / lost",
		  "ck.script-no-attack");
	act_fails(s, "musulmanes", "reveal tropa-2 army / 3", "ck.script-attack");
	/* and more departures: the wrong card, the wrong place, no die, the
	 * army listed wrong, a response the script does not add */
	act_fails(s, "musulmanes", "reveal tropa-3 army / 3 attack turbessel / 1 1 1 1 1 = 0 vs 6 6 = 2 / lost",
		  "ck.script-card");
	act_fails(s, "musulmanes", "reveal tropa-2 response", "ck.script-place");
	act_fails(s, "musulmanes", "reveal tropa-2 army", "ck.script-roll");
	act_fails(s, "musulmanes", "reveal tropa-2 army / 3 attack turbessel with tropa-2 / 4 2 1 5 = 2 vs 6 4 = 2 / lost",
		  "ck.script-army");
	act_fails(s, "musulmanes", "reveal tropa-2 army / 3 attack turbessel & musulmanes lider attack / 4 2 1 5 = 2 vs 6 4 = 2 / lost",
		  "ck.script-response");
	act_fails(s, "ricardo", "pass", "ck.not-your-round");
	/* the example: the army of 4 attacks Turbessel from Edesa */
	act_ok(s, "musulmanes", "reveal tropa-2 army / 3 attack turbessel from edesa with tropa-2 tropa-2 & leopoldo turcopolos defence / 4 2 1 5 = 2 vs 6 4 1 2 = 2 / lost");
	ck_assert_int_eq(s->owner[area8("turbessel")], leo);
	ck_assert_int_eq(s->p[mus].tab.narmy, 0);	/* the attacking cards are discarded */
	ck_assert_int_eq(s->pile[CK_MUSLIM].discard[card(CK_MUSLIM, "tropa-2")], 2);
	hg_ck_class.free_state(s);
}
END_TEST

START_TEST(script_places_and_events)
{
	hg_state *s = game8("1st-crusade", "Bohemond", NULL);
	int mus = faction(s, "musulmanes"), cru = faction(s, "cruzada");
	act_ok(s, "cruzada", "draw tropa-3 tropa-2 tropa-2 tropa-1 tropa-1 incursion turcopolos tropa-4");
	act_fails(s, "musulmanes", "draw 7 ?", "ck.draw-count");
	act_ok(s, "musulmanes", "draw lider murallas tropa-1 reagrupamiento lider seduccion comercio incursion");
	ck_assert_int_eq(s->p[mus].hand.size, 8);
	ck_assert_int_eq(s->p[mus].tab.nstack, 8);
	/* no army: Líder is a response, Reagrupamiento would be discarded (8.4) */
	ck_assert_int_eq(hg_ck_script_placement(s, mus, CK_MUSLIM, card(CK_MUSLIM, "reagrupamiento"), 0),
			 CK_PLACE_DISCARDED);
	act_ok(s, "cruzada", "discard tropa-1");
	act_fails(s, "musulmanes", "reveal lider army", "ck.script-place");
	act_fails(s, "musulmanes", "reveal lider", "ck.script-place");
	act_fails(s, "musulmanes", "reveal murallas at jerusalen", "ck.script-card");
	act_ok(s, "musulmanes", "reveal lider response");
	act_fails(s, "musulmanes", "attack hama / 1 = 0 vs 1 1 = 0 / lost", "ck.not-your-round");
	/* Murallas: the Muslim area with the lowest number (Jerusalén, 1) */
	act_ok(s, "cruzada", "discard tropa-1");
	act_fails(s, "musulmanes", "pass", "ck.script-action");
	act_fails(s, "musulmanes", "reveal murallas at jaffa", "ck.script-area");
	act_fails(s, "musulmanes", "reveal murallas", "ck.script-area");
	act_fails(s, "musulmanes", "reveal murallas at jerusalen / 3", "ck.script-roll");
	act_ok(s, "musulmanes", "reveal murallas at jerusalen");
	ck_assert(s->plus1[area8("jerusalen")]);
	/* a troop forms the army, which rolls: a 6 is not below 1 */
	act_ok(s, "cruzada", "discard tropa-2");
	act_fails(s, "musulmanes", "reveal tropa-1 response / 6", "ck.script-place");
	act_ok(s, "musulmanes", "reveal tropa-1 army / 6");
	/* with an army, Reagrupamiento and Líder join it */
	act_ok(s, "cruzada", "discard tropa-2");
	act_fails(s, "musulmanes", "reveal reagrupamiento discarded / 1", "ck.script-place");
	act_ok(s, "musulmanes", "reveal reagrupamiento army / 1");	/* 1 is not below 1 */
	act_fails(s, "cruzada", "reveal tropa-3 army", "ck.script-action");
	act_ok(s, "cruzada", "pass");
	act_fails(s, "cruzada", "discard tropa-3", "ck.passed");
	act_fails(s, "musulmanes", "reveal lider response / 6", "ck.script-place");
	act_ok(s, "musulmanes", "reveal lider army / 6");
	ck_assert_int_eq(s->p[mus].tab.narmy, 3);
	ck_assert_int_eq(hg_ck_army_strength(s, mus), 1);	/* troop points only */
	/* Seducción takes a card of the crusader in round: a troop joins the army */
	act_fails(s, "musulmanes", "reveal seduccion on cruzada takes tropa-3 response / 6",
		  "ck.script-place");
	act_fails(s, "musulmanes", "reveal seduccion on cruzada takes ? army / 6", "ck.script-take");
	act_ok(s, "musulmanes", "reveal seduccion on cruzada takes tropa-3 army / 6");
	ck_assert_int_eq(hg_ck_army_strength(s, mus), 4);
	ck_assert_int_eq(s->p[cru].hand.size, 3);
	/* Comercio: the Muslims' bonus +1; then the army (4 points) rolls a 2
	 * and attacks Marat, the crusade's only area; Líder's 3 points raise the
	 * 3 and the 2 */
	act_fails(s, "musulmanes", "reveal comercio on cruzada / 2 attack marat / 1 2 3 4 = 1 vs 5 = 1 / lost",
		  "ck.event-args");
	act_fails(s, "musulmanes", "reveal comercio / 2 attack marat / 1 2 3 4 mod 3>4 = 2 vs 5 = 1 / won",
		  "ck.script-mods");
	/* at +2 the gain is lost, and no castle turns for it (8.2) */
	s->p[mus].bonus = 2;
	act_fails(s, "musulmanes", "reveal comercio castle jaffa / 2 attack marat from hama / 1 2 3 4 mod 3>4 2>4 = 3 vs 5 = 1 / won",
		  "ck.bonus-limit");
	act_ok(s, "musulmanes", "reveal comercio / 2 attack marat from hama / 1 2 3 4 mod 3>4 2>4 = 3 vs 5 = 1 / won");
	ck_assert_int_eq(s->p[mus].bonus, 2);
	for (int a = 0; a < s->map->nareas; a++)
		ck_assert(!s->plus1[a] || a == area8("jerusalen"));
	ck_assert_int_eq(s->owner[area8("marat")], mus);
	/* Reagrupamiento: the strongest troop stays in the army (8.4) */
	ck_assert_int_eq(s->p[mus].tab.narmy, 1);
	ck_assert_int_eq(hg_ck_army_strength(s, mus), 3);
	/* the crusade holds no area: the army does not roll */
	act_fails(s, "musulmanes", "reveal incursion on cruzada discards tropa-4 / 1",
		  "ck.script-roll");
	act_ok(s, "musulmanes", "reveal incursion on cruzada discards tropa-4");
	/* the turn ends: the crusade passed and the Muslims played every card */
	ck_assert_int_eq(s->turn, 2);
	ck_assert_int_eq(s->phase, CK_PHASE_DRAW);
	act_fails(s, "cruzada", "draw 8 ?", "ck.draw-count");	/* kept 2 */
	act_ok(s, "cruzada", "draw 6 ?");
	act_fails(s, "musulmanes", "draw 9 ?", "ck.draw-count");	/* bonus +2 */
	act_ok(s, "musulmanes", "draw 10 ?");
	ck_assert_int_eq(s->p[mus].bonus, 0);
	/* a crusader with no area attacks one of its deployment areas */
	act_ok(s, "cruzada", "attack marat with tropa-2 / ? vs ? / lost");
	hg_ck_class.free_state(s);
}
END_TEST

START_TEST(script_defence)
{
	hg_state *s = game8("1st-crusade", "Bohemond", NULL);
	act_ok(s, "cruzada", "draw tropa-3 tropa-2 tropa-2 tropa-1 tropa-1 incursion turcopolos tropa-4");
	act_ok(s, "musulmanes", "draw lider tropa-1 tropa-1 tropa-1 tropa-1 tropa-2 tropa-2 tropa-2");
	act_ok(s, "cruzada", "discard incursion");
	act_ok(s, "musulmanes", "reveal lider response");
	/* two dice: the Muslims do not answer */
	act_fails(s, "cruzada", "attack hama from marat with tropa-2 & musulmanes lider defence / 1 2 = 0 vs 1 2 mod 2>4 = 1 / lost",
		  "ck.script-response");
	/* three dice or more: they answer with their first response, Líder,
	 * whose points the script spends on the dice nearest 4 */
	act_fails(s, "cruzada", "attack hama from marat with tropa-3 / 4 5 6 = 3 vs 1 3 = 0 / won",
		  "ck.script-response");
	act_fails(s, "cruzada", "attack hama from marat with tropa-3 & musulmanes lider defence / 4 5 6 = 3 vs 1 3 mod 1>4 = 1 / won",
		  "ck.script-mods");
	act_fails(s, "cruzada", "attack hama from marat with tropa-3 & musulmanes lider defence turn jerusalen / 4 5 6 = 3 vs 1 3 1 mod 3>4 = 1 / won",
		  "ck.script-turn");
	act_ok(s, "cruzada", "attack hama from marat with tropa-3 & musulmanes lider defence / 4 5 6 = 3 vs 1 3 mod 3>4 = 1 / won");
	ck_assert_int_eq(s->p[1].tab.nreserve, 0);	/* used, discarded */
	ck_assert_int_eq(s->pile[CK_MUSLIM].discard[card(CK_MUSLIM, "lider")], 1);
	ck_assert_int_eq(s->p[0].bonus, 0);		/* no bonus for a conquest (8.2) */
	act_ok(s, "musulmanes", "reveal tropa-1 army / 3");
	act_fails(s, "cruzada", "attack homs from hama with tropa-2 / 4 5 = 2 vs 1 2 = 0 / won bonus",
		  "ck.choice");
	hg_ck_class.free_state(s);
	/* the script's use of Líder's points */
	int dice[] = { 3, 2, 1, 5 };
	ck_mod mods[4];
	ck_assert_int_eq(hg_ck_script_mods(dice, 4, 3, mods), 2);
	ck_assert_int_eq(mods[0].from, 3);
	ck_assert_int_eq(mods[1].from, 2);
	ck_assert_int_eq(hg_ck_script_mods(dice, 4, 0, mods), 0);
	int ones[] = { 1, 1 };
	ck_assert_int_eq(hg_ck_script_mods(ones, 2, 3, mods), 1);
}
END_TEST

START_TEST(cooperative_rounds)
{
	hg_state *s = game8("3rd-crusade", "Ricardo; Leopoldo", NULL);
	act_ok(s, "ricardo", "draw tropa-4 tropa-3 tropa-3 tropa-2 tropa-2 tropa-1 peregrinos-armados incursion");
	act_ok(s, "leopoldo", "draw tropa-4 tropa-3 tropa-2 tropa-2 tropa-1 turcopolos tropa-1 tropa-2");
	act_ok(s, "musulmanes", "draw incursion tropa-1 murallas murallas comercio incursion seduccion lider");
	ck_assert_str_eq(hg_ck_class.to_move(s), "ricardo");
	/* the crusaders may attack and target each other (ruling 37: 4.1
	 * "debe pertenecer a otro jugador", Incursión "Elige a un jugador") */
	hg_ck_set_owner(s, area8("tiro"), 1);
	static const char attack_ally[] =
		"attack tiro from tripoli with tropa-2 / 1 2 = 0 vs 1 2 3 = 0 / lost";
	static const char raid_ally[] = "play incursion on leopoldo discards tropa-1";
	act_ok_on_copy(s, "ricardo", attack_ally);
	act_ok_on_copy(s, "ricardo", raid_ally);
	/* ... unless the scenario's house rule `allies` forbids it */
	ck_scenario house = *s->sc;
	const ck_scenario *shipped = s->sc;
	house.allies[CK_CHRISTIAN] = 1;
	s->sc = &house;
	act_fails(s, "ricardo", attack_ally, "ck.attack-ally");
	act_fails(s, "ricardo", raid_ally, "ck.target");
	s->sc = shipped;
	hg_ck_set_owner(s, area8("tiro"), 2);
	act_fails(s, "ricardo", "pass end", "ck.end-wrong");
	act_ok(s, "ricardo", "pass");
	/* the Muslim round after Ricardo's is against Ricardo (8.2) */
	act_fails(s, "musulmanes", "reveal incursion on leopoldo discards tropa-1", "ck.script-target");
	act_fails(s, "musulmanes", "reveal incursion discards tropa-1", "ck.event-args");
	act_ok(s, "musulmanes", "reveal incursion on ricardo discards tropa-4");
	ck_assert_int_eq(s->p[0].hand.size, 7);
	act_ok(s, "leopoldo", "discard tropa-1");
	act_ok(s, "musulmanes", "reveal tropa-1 army / 6");
	/* Ricardo passed: his rounds are skipped, but the Muslims' round
	 * against him is played while they hold cards */
	ck_assert_str_eq(hg_ck_class.to_move(s), "musulmanes");
	act_fails(s, "ricardo", "discard tropa-1", "ck.passed");
	act_ok(s, "musulmanes", "reveal murallas at jerusalen / 5");
	act_fails(s, "leopoldo", "pass end", "ck.end-wrong");
	act_ok(s, "leopoldo", "pass");
	act_ok(s, "musulmanes", "reveal murallas at jaffa / 4");
	act_ok(s, "musulmanes", "reveal comercio / 3");
	act_fails(s, "musulmanes", "reveal incursion on ricardo discards tropa-2 / 2", "ck.script-target");
	act_ok(s, "musulmanes", "reveal incursion on leopoldo discards tropa-2 / 2");
	act_ok(s, "musulmanes", "reveal seduccion on ricardo takes peregrinos-armados response / 1");
	ck_assert_int_eq(s->turn, 1);
	act_ok(s, "musulmanes", "reveal lider army / 1");
	ck_assert_int_eq(s->turn, 2);
	/* the army and the responses carry over to the next turn (8.3) */
	ck_assert_int_eq(s->p[2].tab.narmy, 2);
	ck_assert_int_eq(s->p[2].tab.nreserve, 1);
	ck_assert_int_eq(hg_ck_on_table(s, CK_CHRISTIAN, card(CK_CHRISTIAN, "peregrinos-armados")), 1);
	/* and are not reshuffled: 22 Christian cards less 13 in hand and 1 on the table */
	ck_assert_int_eq(s->pile[CK_CHRISTIAN].n, 22 - 6 - 6 - 1);
	hg_ck_class.free_state(s);
}
END_TEST

/* The Muslims' face-down cards: a card taken at random whose copies lie in
 * several places leaves the cards between them unknown (ruling 37). */
START_TEST(script_face_down_cards)
{
	hg_state *s = game8("1st-crusade", "Bohemond", NULL);
	int mus = faction(s, "musulmanes");
	act_ok(s, "cruzada", "draw incursion incursion tropa-2 tropa-2 tropa-1 tropa-1 tropa-3 tropa-3");
	act_ok(s, "musulmanes", "draw tropa-1 tropa-2 tropa-1 comercio tropa-3 murallas tropa-2 lider");
	ck_assert_int_eq(s->p[mus].tab.nstack, 8);
	/* Incursión takes a tropa-1: the first or the third card */
	act_fails(s, "cruzada", "play incursion on musulmanes discards tropa-4", "ck.card-not-in-hand");
	act_ok(s, "cruzada", "play incursion on musulmanes discards tropa-1");
	ck_assert_int_eq(s->p[mus].tab.nstack, 7);
	ck_assert_int_eq(s->p[mus].tab.stack[0].card, CK_UNKNOWN);
	ck_assert_int_eq(s->p[mus].tab.stack[1].card, CK_UNKNOWN);
	ck_assert_int_eq(s->p[mus].tab.stack[2].card, card(CK_MUSLIM, "comercio"));
	/* the next card is not known: its reveal is unverified, not wrong */
	hg_diags d;
	hg_diags_init(&d);
	ck_assert_int_eq(act(s, "musulmanes", "reveal tropa-2 army / 6", &d), 0);
	ck_assert_uint_eq(d.nerrors, 0);
	ck_assert_uint_eq(d.nunverified, 1);
	ck_assert_str_eq(d.v[0].code, "ck.hidden-card");
	hg_diags_free(&d);
	act_ok(s, "cruzada", "discard tropa-3");
	hg_diags_init(&d);
	ck_assert_int_eq(act(s, "musulmanes", "reveal tropa-1 army / 6", &d), 0);
	ck_assert_uint_eq(d.nunverified, 1);
	hg_diags_free(&d);
	/* comercio is known again */
	act_ok(s, "cruzada", "discard tropa-3");
	act_fails(s, "musulmanes", "reveal lider army / 6", "ck.script-card");
	act_ok(s, "musulmanes", "reveal comercio / 6");
	/* a card taken unseen makes every face-down card unknown */
	act_ok(s, "cruzada", "incursion musulmanes with tropa-1 / 5 discards ?");
	for (int i = 0; i < s->p[mus].tab.nstack; i++)
		ck_assert_int_eq(s->p[mus].tab.stack[i].card, CK_UNKNOWN);
	/* a card with a copy free may be next (unverified); Comercio, whose
	 * one copy is in the discard pile, may not */
	act_fails(s, "musulmanes", "reveal comercio / 6", "ck.card-exhausted");
	hg_diags_init(&d);
	ck_assert_int_eq(act(s, "musulmanes", "reveal lider army / 6", &d), 0);
	ck_assert_uint_eq(d.nerrors, 0);
	ck_assert_uint_eq(d.nunverified, 1);
	hg_diags_free(&d);
	hg_ck_class.free_state(s);
}
END_TEST

/* ------------------------------------------- hidden dice (issue 25) */

/* The three verdicts on an action with hidden values. */
enum { LEGAL, UNVERIFIED, ILLEGAL };

/* herald's verdict on `body` in s (left as it was). */
static int verdict(const hg_state *s, const char *seat, const char *body)
{
	hg_state *work = hg_ck_class.clone(s);
	hg_diags d;
	hg_diags_init(&d);
	int rc = act(work, seat, body, &d);
	int v = rc != 0 || d.nerrors ? ILLEGAL : d.nunverified ? UNVERIFIED : LEGAL;
	hg_diags_free(&d);
	hg_ck_class.free_state(work);
	return v;
}

/* Brute force, independent of herald's reasoning about hidden dice: every
 * assignment of faces to the n hidden dice is written out and checked as
 * dice written; legal when all are, illegal when none is, else
 * unverified.  write(buf, size, faces, ctx) writes the body for one
 * assignment. */
typedef void body_writer(char *buf, size_t size, const int *faces, const void *ctx);

static int brute_verdict(const hg_state *s, const char *seat, int n, body_writer *write,
			 const void *ctx)
{
	int faces[8], legal = 0, total = 0;
	for (int i = 0; i < n; i++)
		faces[i] = 1;
	for (;;) {
		char body[512];
		write(body, sizeof body, faces, ctx);
		legal += verdict(s, seat, body) == LEGAL;
		total++;
		int i = 0;
		while (i < n && faces[i] == 6)
			faces[i++] = 1;
		if (i == n)
			break;
		faces[i]++;
	}
	return legal == total ? LEGAL : legal == 0 ? ILLEGAL : UNVERIFIED;
}

/* An attack whose rolls may be hidden: the attacker's cards, its
 * modifications and hits, the defender's dice (NULL: hidden) and hits,
 * the outcome. */
typedef struct hidden_attack {
	const char *head;	/* "attack baalbek from damasco with tropa-1" */
	int natt;		/* the attacker's dice, all hidden */
	const char *mods;	/* "" or " mod 2>4" */
	int hits_att;		/* -1: not written */
	int ndef;		/* the defender's dice */
	int hide_def;
	const int *def;		/* the defender's dice when shown */
	int hits_def;
	const char *outcome;
} hidden_attack;

static void put_dice(char *buf, size_t size, const int *faces, int n, const char *mods,
		     int hits)
{
	size_t len = strlen(buf);
	for (int i = 0; i < n; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%d", i ? " " : "", faces[i]);
	len += (size_t)snprintf(buf + len, size - len, "%s", mods);
	if (hits >= 0)
		snprintf(buf + len, size - len, " = %d", hits);
}

static void write_attack(char *buf, size_t size, const int *faces, const void *ctx)
{
	const hidden_attack *h = ctx;
	snprintf(buf, size, "%s / ", h->head);
	put_dice(buf, size, faces, h->natt, h->mods, h->hits_att);
	strncat(buf, " vs ", size - strlen(buf) - 1);
	put_dice(buf, size, h->hide_def ? faces + h->natt : h->def, h->ndef, "", h->hits_def);
	size_t len = strlen(buf);
	snprintf(buf + len, size - len, " / %s", h->outcome);
}

static void write_hidden_attack(char *buf, size_t size, const hidden_attack *h)
{
	snprintf(buf, size, "%s / ?%s", h->head, h->mods);
	size_t len = strlen(buf);
	if (h->hits_att >= 0)
		len += (size_t)snprintf(buf + len, size - len, " = %d", h->hits_att);
	len += (size_t)snprintf(buf + len, size - len, " vs ");
	if (h->hide_def) {
		len += (size_t)snprintf(buf + len, size - len, "?");
		if (h->hits_def >= 0)
			len += (size_t)snprintf(buf + len, size - len, " = %d", h->hits_def);
	} else {
		put_dice(buf, size, h->def, h->ndef, "", h->hits_def);
		len = strlen(buf);
	}
	snprintf(buf + len, size - len, " / %s", h->outcome);
}

START_TEST(hidden_dice_attacks_against_brute_force)
{
	hg_state *s = after_draws();
	static const int shown[] = { 2, 5 };
	static const char *const outcomes[] = { "won bonus", "lost" };
	/* damasco: 1 die (tropa-1), or 1 with Líder's points; Baalbek's
	 * shield: 2 dice.  Every written hit count and outcome, with the
	 * defender's dice hidden or shown: up to 3 hidden dice. */
	static const struct { const char *head; const char *mods; } atts[] = {
		{ "attack baalbek from damasco with tropa-1", "" },
		{ "attack baalbek from damasco with tropa-1 lider", "" },
		{ "attack baalbek from damasco with tropa-1 lider", " mod 2>4" },
		{ "attack baalbek from damasco with tropa-1 lider", " mod 3>6" },
		{ "attack baalbek from damasco with tropa-1 lider", " mod 4>5" },
		{ "attack baalbek from damasco with tropa-1 lider", " mod 1>3" },
		{ "attack baalbek from damasco with tropa-1 lider", " mod 1>4 2>3" },
		{ "attack baalbek from damasco with tropa-1", " mod 2>4" },
	};
	int checked = 0;
	for (size_t k = 0; k < sizeof atts / sizeof atts[0]; k++)
		for (int hide_def = 0; hide_def < 2; hide_def++)
			for (int ha = -1; ha <= 2; ha++)
				for (int hd = -1; hd <= 3; hd++)
					for (int o = 0; o < 2; o++) {
						hidden_attack h = { atts[k].head, 1, atts[k].mods, ha, 2,
								    hide_def, shown, hd, outcomes[o] };
						char body[512];
						write_hidden_attack(body, sizeof body, &h);
						int want = brute_verdict(s, "damasco", 1 + 2 * hide_def,
									 write_attack, &h);
						int got = verdict(s, "damasco", body);
						if (got != want)
							fprintf(stderr, "%s: herald %d, brute force %d\n",
								body, got, want);
						ck_assert_int_eq(got, want);
						checked++;
					}
	ck_assert_int_eq(checked, 8 * 2 * 4 * 5 * 2);
	hg_ck_class.free_state(s);
}
END_TEST

static void write_incursion(char *buf, size_t size, const int *faces, const void *ctx)
{
	const char *discards = ctx;
	snprintf(buf, size, "incursion antioquia with tropa-1 / %d%s", faces[0], discards);
}

START_TEST(hidden_dice_incursions_against_brute_force)
{
	hg_state *s = after_draws();
	static const char *const discards[] = { "", " discards tropa-2", " discards ?" };
	for (size_t i = 0; i < sizeof discards / sizeof discards[0]; i++) {
		char body[128];
		snprintf(body, sizeof body, "incursion antioquia with tropa-1 / ?%s", discards[i]);
		ck_assert_int_eq(verdict(s, "damasco", body),
				 brute_verdict(s, "damasco", 1, write_incursion, discards[i]));
	}
	/* a 0 is no hidden die: out of range */
	act_fails(s, "damasco", "incursion antioquia with tropa-1 / 0", "ck.die-range");
	hg_ck_class.free_state(s);
}
END_TEST

/* The Muslims' round: the card, then the die, with or without the army's
 * attack on Marat (the army's dice all 1s: the attack lost). */
typedef struct army_round {
	const char *card;
	int strength;		/* the army's troop points after the card */
	int attacks;
} army_round;

static void write_army(char *buf, size_t size, const int *faces, const void *ctx)
{
	const army_round *r = ctx;
	size_t len = (size_t)snprintf(buf, size, "reveal %s army / ", r->card);
	if (faces)
		len += (size_t)snprintf(buf + len, size - len, "%d", faces[0]);
	else
		len += (size_t)snprintf(buf + len, size - len, "?");
	if (!r->attacks)
		return;
	len += (size_t)snprintf(buf + len, size - len, " attack marat /");
	for (int i = 0; i < r->strength; i++)
		len += (size_t)snprintf(buf + len, size - len, " 1");
	snprintf(buf + len, size - len, " = 0 vs 6 = 1 / lost");
}

START_TEST(hidden_army_die_against_brute_force)
{
	hg_state *s = game8("1st-crusade", "Bohemond", NULL);
	act_ok(s, "cruzada", "draw tropa-3 tropa-2 tropa-2 tropa-1 tropa-1 incursion turcopolos tropa-4");
	act_ok(s, "musulmanes", "draw tropa-1 tropa-2 tropa-2 tropa-2 tropa-1 tropa-1 tropa-1 lider");
	/* the army's points after each card: 1 (never attacks), 3, 5, 7
	 * (attacks on any die) */
	static const army_round rounds[] = {
		{ "tropa-1", 1, 0 }, { "tropa-2", 3, 0 }, { "tropa-2", 5, 0 }, { "tropa-2", 7, 0 },
	};
	static const char *const discards[] = { "tropa-1", "tropa-1", "tropa-2", "tropa-2" };
	static const int expect_no_attack[] = { LEGAL, UNVERIFIED, UNVERIFIED, ILLEGAL };
	static const int expect_attack[] = { ILLEGAL, UNVERIFIED, UNVERIFIED, LEGAL };
	for (int k = 0; k < 4; k++) {
		char move[64];
		snprintf(move, sizeof move, "discard %s", discards[k]);
		act_ok(s, "cruzada", move);
		for (int attacks = 0; attacks < 2; attacks++) {
			army_round r = rounds[k];
			r.attacks = attacks;
			char body[256];
			write_army(body, sizeof body, NULL, &r);
			int want = brute_verdict(s, "musulmanes", 1, write_army, &r);
			ck_assert_int_eq(want, attacks ? expect_attack[k] : expect_no_attack[k]);
			ck_assert_int_eq(verdict(s, "musulmanes", body), want);
		}
		/* on: a 6, which no army of 6 points or fewer attacks on */
		if (k < 3) {
			snprintf(move, sizeof move, "reveal %s army / 6", rounds[k].card);
			act_ok(s, "musulmanes", move);
		}
	}
	/* a 0 is no hidden die: out of range */
	act_fails(s, "musulmanes", "reveal tropa-2 army / 0", "ck.die-range");
	hg_ck_class.free_state(s);
}
END_TEST

/* The first error code of setting up `scenario` with the tag
 * BonusDifference `value`, or "" (and *each the reading) when it sets up. */
static const char *bonus_difference_setup(const char *scenario, const char *players,
					  const char *value, int *each)
{
	static char code[64];
	hg_game_record *rec = hg_record_new("test.hgn");
	hg_record_set_tag(rec, "Game", "crusader-kingdoms");
	hg_record_set_tag(rec, "Scenario", scenario);
	hg_record_set_tag(rec, "Players", players);
	hg_record_set_tag(rec, "BonusDifference", value);
	hg_diags d;
	hg_diags_init(&d);
	hg_state *s = hg_ck_class.setup(shared, rec, &d);
	snprintf(code, sizeof code, "%s", d.nerrors ? d.v[0].code : "");
	ck_assert(s ? d.nerrors == 0 : d.nerrors > 0);
	if (s)
		*each = s->bonus_each;
	hg_ck_class.free_state(s);
	hg_diags_free(&d);
	hg_record_free(rec);
	return code;
}

START_TEST(bonus_difference_tag)
{
	int each = -1;
	ck_assert_str_eq(bonus_difference_setup("3rd-crusade", "A; B", "each", &each), "");
	ck_assert_int_eq(each, 1);
	ck_assert_str_eq(bonus_difference_setup("3rd-crusade", "A; B", "together", &each), "");
	ck_assert_int_eq(each, 0);
	ck_assert_str_eq(bonus_difference_setup("3rd-crusade", "A; B", "twice", &each),
			 "ck.bonus-difference");
	/* the 3- and 4-player games end by castles */
	ck_assert_str_eq(bonus_difference_setup("saladin", "A; B; C", "each", &each),
			 "ck.bonus-difference");
}
END_TEST

START_TEST(victory_points_and_levels)
{
	hg_state *s = game8("3rd-crusade", "A; B", NULL);
	/* Trípoli 2 + Antioquía 3 */
	ck_assert_int_eq(hg_ck_victory_points(s), 5);
	s->p[2].bonus = 1;		/* the Muslims' bonus counts against */
	ck_assert_int_eq(hg_ck_victory_points(s), 4);
	s->p[0].bonus = 2;
	ck_assert_int_eq(hg_ck_victory_points(s), 6);
	/* BonusDifference "each": the Muslims' +1 against each crusader */
	s->bonus_each = 1;
	ck_assert_int_eq(hg_ck_victory_points(s), 5);
	s->bonus_each = 0;
	s->p[0].bonus = s->p[2].bonus = 0;
	static const struct { const char *areas; const char *result; } cases[] = {
		{ "jerusalen acre damasco", "victory, 16 VP" },			/* 5+3+3+5 */
		{ "jerusalen acre jaffa", "victory, 15 VP" },			/* 5+3+2+5 */
		{ "jerusalen acre hama", "marginal victory, 14 VP" },
		{ "jerusalen jaffa", "marginal victory, 12 VP" },
		{ "jerusalen marat", "marginal victory, 11 VP" },
		{ "jerusalen", "defeat, 10 VP" },
		{ "", "defeat, 5 VP" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		hg_state *t = hg_ck_class.clone(s);
		char buf[128];
		snprintf(buf, sizeof buf, "%s", cases[i].areas);
		for (char *w = strtok(buf, " "); w; w = strtok(NULL, " "))
			hg_ck_set_owner(t, area8(w), 0);
		hg_ck_final_result(t);
		ck_assert_str_eq(hg_ck_class.result(t), cases[i].result);
		hg_ck_class.free_state(t);
	}
	/* no sudden victory in section 8 */
	for (int a = 0; a < s->map->nareas; a++)
		hg_ck_set_owner(s, a, 0);
	hg_ck_check_sudden(s, 0);
	ck_assert_ptr_null(hg_ck_class.result(s));
	hg_ck_class.free_state(s);
}
END_TEST

START_TEST(random_games_1p)
{
	char seed[32];
	snprintf(seed, sizeof seed, "unit-1p-%d", _i);
	random_game("1st-crusade", "A", seed);
}
END_TEST

START_TEST(random_games_2p)
{
	char seed[32];
	snprintf(seed, sizeof seed, "unit-2p-%d", _i);
	random_game("3rd-crusade", "A; B", seed);
}
END_TEST

START_TEST(random_games_section8_unseeded)
{
	random_game(_i % 2 ? "3rd-crusade" : "1st-crusade", _i % 2 ? "A; B" : "A", NULL);
}
END_TEST

START_TEST(gen_tags_pick_a_scenario)
{
	hg_prng r;
	hg_prng_seed(&r, "gen");
	hg_diags d;
	hg_diags_init(&d);
	hg_game_record *rec = hg_record_new("gen");
	ck_assert_int_eq(hg_ck_class.gen_tags(shared, &r, 3, NULL, rec, &d), 0);
	ck_assert_str_eq(hg_record_tag_value(rec, "Scenario"), "saladin");
	ck_assert_str_eq(hg_record_tag_value(rec, "Players"), "Player 1; Player 2; Player 3");
	ck_assert_ptr_nonnull(hg_record_tag_value(rec, "Seed"));
	ck_assert_int_eq(hg_ck_class.gen_tags(shared, &r, 0, "2nd-crusade", rec, &d), 0);
	ck_assert_str_eq(hg_record_tag_value(rec, "Scenario"), "2nd-crusade");
	ck_assert_int_ne(hg_ck_class.gen_tags(shared, &r, 5, NULL, rec, &d), 0);
	ck_assert_int_eq(hg_ck_class.gen_tags(shared, &r, 1, NULL, rec, &d), 0);
	ck_assert_str_eq(hg_record_tag_value(rec, "Scenario"), "1st-crusade");
	ck_assert_str_eq(hg_record_tag_value(rec, "Players"), "Player 1");
	ck_assert_int_eq(hg_ck_class.gen_tags(shared, &r, 2, NULL, rec, &d), 0);
	ck_assert_str_eq(hg_record_tag_value(rec, "Scenario"), "3rd-crusade");
	hg_record_free(rec);
	hg_diags_free(&d);
}
END_TEST

/* ------------------------------------------ the fast paths of the parser */

/* Random words for the spellings and the actions: ids, aliases, the same
 * in capitals, accents, misspellings, keywords, numbers, punctuation. */
static const char *const odd_words[] = {
	"?", "/", "&", ">", "=", ",", "+", "0", "1", "2", "3", "4", "5", "6", "07", "007",
	"12", "123", "255", "256", "999", "1000", "0007", "on", "at", "draws", "takes",
	"discards", "castle", "attack", "from", "with", "turn", "vs", "mod", "end", "army",
	"response", "discarded", "won", "lost", "bonus", "defence", "defense", "DEFENCE",
	"Attack", "WON", "Mod", "VS", "draw", "pass", "discard", "incursion", "play",
	"reveal", "P1", "p2", "P9", "t1", "troop-2", "TROPA-2", "Líder", "líder", "lider",
	"Homs", "antioquía", "Antioquia", "damascus", "xyz", "tropa", "tropa-22", "homs-",
	"jerusalen", "musulmanes", "ricardo", "leopoldo", "damasco", "alepo", "saladino",
	"jaffa", "acre", "edesa", "latakia", "baalbek", "comercio", "murallas", "seduccion",
	"reagrupamiento", "turcopolos", "tropa-1", "tropa-3", "tropa-4", "mercenarios"
};

static const char *rand_word(hg_prng *r, const char *const *ids, int nids)
{
	if (hg_prng_below(r, 2))
		return ids[hg_prng_below(r, (uint32_t)nids)];
	return odd_words[hg_prng_below(r, (uint32_t)HG_ARRAY_LEN(odd_words))];
}

/* The entry spelled exactly w, by a scan of every entry with strcmp: what
 * the bucketed search (first byte, length, last byte) must find. */
static const ck_spelling *spelling_scan(const ck_spellings *sp, const char *w)
{
	for (int i = 0; i < sp->n; i++)
		if (strcmp(sp->v[i].name, w) == 0)
			return &sp->v[i];
	return NULL;
}

/* Every spelling found gives what hg_names_find gives; every ASCII id is
 * found; the search by length finds what a scan finds. */
static void check_spellings(const ck_spellings *sp, const char *const *ids, int nids,
			    const hg_names *const *tables, int ntables)
{
	hg_prng r;
	hg_prng_seed(&r, "spellings");
	int hits = 0;
	for (int i = 0; i < sp->n; i++) {
		ck_assert_uint_eq(sp->v[i].len, strlen(sp->v[i].name));
		ck_assert_ptr_eq(hg_ck_spelling_find(sp, sp->v[i].name), &sp->v[i]);
	}
	for (int i = 0; i < nids; i++) {
		char *f = hg_name_fold(ids[i]);
		if (strcmp(ids[i], f) == 0)
			ck_assert_ptr_nonnull(hg_ck_spelling_find(sp, ids[i]));
		free(f);
	}
	for (int k = 0; k < 4000; k++) {
		char w[64];
		snprintf(w, sizeof w, "%s", rand_word(&r, ids, nids));
		if (hg_prng_below(&r, 4) == 0 && w[0])	/* a change of case or a letter */
			w[hg_prng_below(&r, (uint32_t)strlen(w))] ^= (char)(hg_prng_below(&r, 2) ? 0x20 : 1);
		const ck_spelling *e = hg_ck_spelling_find(sp, w);
		ck_assert_ptr_eq(e, spelling_scan(sp, w));
		ck_assert_ptr_eq(hg_ck_spelling_find_n(sp, w, strlen(w)), e);
		/* a prefix of the word, given by its length alone */
		size_t cut = hg_prng_below(&r, (uint32_t)strlen(w) + 1);
		char pre[64];
		memcpy(pre, w, cut);
		pre[cut] = '\0';
		ck_assert_ptr_eq(hg_ck_spelling_find_n(sp, w, cut), spelling_scan(sp, pre));
		for (int t = 0; e && t < ntables; t++)
			ck_assert_int_eq(e->value[t], hg_names_find(tables[t], w));
		for (int t = ntables; e && t < CK_NRELIGIONS; t++)
			ck_assert_int_eq(e->value[t], -1);
		hits += e != NULL;
	}
	ck_assert_int_gt(hits, 1000);
}

/* Each scenario's masks of player and scripted sides say what its
 * factions say, one by one. */
START_TEST(scenario_masks_agree_with_the_factions)
{
	int scripted = 0;
	for (int i = 0; i < shared->nscenarios; i++) {
		const ck_scenario *sc = &shared->scenarios[i];
		ck_assert_uint_eq(sc->players_mask & sc->scripted_mask, 0);
		ck_assert_uint_eq(sc->players_mask | sc->scripted_mask, (1u << sc->nfactions) - 1);
		for (int f = 0; f < sc->nfactions; f++) {
			ck_assert_uint_eq((sc->players_mask >> f) & 1, sc->factions[f].player != 0);
			ck_assert_uint_eq((sc->scripted_mask >> f) & 1, sc->factions[f].player == 0);
		}
		ck_assert_int_eq(sc->scripted, sc->scripted_mask != 0);
		scripted += sc->scripted_mask != 0;
	}
	ck_assert_int_gt(scripted, 0);
	ck_assert_int_lt(scripted, shared->nscenarios);
}
END_TEST

/* Every map's borders are symmetric (the attack's step 1 asks the target's
 * borders, not those of every area it may be attacked from). */
START_TEST(borders_are_symmetric)
{
	int pairs = 0;
	for (int i = 0; i < shared->nmaps; i++) {
		const ck_map *m = &shared->maps[i];
		for (int a = 0; a < m->nareas; a++)
			for (int b = 0; b < m->nareas; b++) {
				ck_assert_uint_eq((m->areas[a].adj >> b) & 1, (m->areas[b].adj >> a) & 1);
				pairs += (m->areas[a].adj >> b) & 1;
			}
	}
	ck_assert_int_gt(pairs, 20);
}
END_TEST

/* ck_same_bytes says what memcmp says, at every length the ids have and
 * around, for bytes that differ anywhere or nowhere. */
START_TEST(same_bytes_agrees_with_memcmp)
{
	hg_prng r;
	hg_prng_seed(&r, "same-bytes");
	int same = 0, differ = 0;
	for (int k = 0; k < 20000; k++) {
		char a[48], b[48];
		size_t n = hg_prng_below(&r, 41);
		for (size_t i = 0; i < sizeof a; i++)
			a[i] = b[i] = (char)('a' + hg_prng_below(&r, 3));
		for (size_t i = n; i < sizeof b; i++)
			b[i] ^= 1;	/* past the end: never compared */
		if (n && hg_prng_below(&r, 2))
			b[hg_prng_below(&r, (uint32_t)n)] ^= (char)(1 << hg_prng_below(&r, 8));
		int want = memcmp(a, b, n) == 0;
		ck_assert_int_eq(ck_same_bytes(a, b, n), want);
		same += want;
		differ += !want;
	}
	ck_assert_int_gt(same, 5000);
	ck_assert_int_gt(differ, 5000);
}
END_TEST

/* ck_same_id_4_16 (the ids' comparison without a branch on the length)
 * says what memcmp says at every length it takes, with one byte changed
 * at each place in turn: every byte of the n is compared, none past them.
 * The words sit at the end of their buffers (the sanitizer build sees a
 * read past the n bytes). */
START_TEST(same_id_agrees_with_memcmp)
{
	hg_prng r;
	hg_prng_seed(&r, "same-id");
	int same = 0, differ = 0;
	for (size_t n = 4; n <= 16; n++) {
		for (int k = 0; k < 1200; k++) {
			char *a = hg_xmalloc(n + 1), *b = hg_xmalloc(n + 1);
			for (size_t i = 0; i < n; i++)
				a[i] = b[i] = (char)('a' + hg_prng_below(&r, 3));
			a[n] = b[n] = '\0';
			if (n && k % 2)	/* each place in turn, each bit */
				b[(size_t)k / 2 % n] ^= (char)(1 << hg_prng_below(&r, 8));
			int want = memcmp(a, b, n) == 0;
			ck_assert_msg(ck_same_id_4_16(a, b, n) == want, "'%s' and '%s' (%zu bytes)",
				      a, b, n);
			same += want;
			differ += !want;
			free(a);
			free(b);
		}
	}
	/* half the pairs equal, half with a byte changed */
	ck_assert_int_eq(same, 13 * 600);
	ck_assert_int_eq(differ, 13 * 600);
}
END_TEST

/* The hits of a roll counted from its count of each face (ck_face_hits,
 * combat.c's unmodified rolls) are those counted die by die (hg_ck_hits),
 * for rolls of no die up to the most one roll may hold. */
START_TEST(face_hits_agree_with_the_dice)
{
	hg_prng r;
	hg_prng_seed(&r, "face-hits");
	int seen[CK_MAX_LIST + 1] = { 0 };
	for (int k = 0; k < 20000; k++) {
		int dice[CK_MAX_LIST], n = (int)hg_prng_below(&r, CK_MAX_LIST + 1);
		uint64_t faces = 0;
		for (int i = 0; i < n; i++) {
			/* mostly fair dice, some rolls all of one face */
			dice[i] = k % 8 ? (int)hg_prng_die(&r, 6) : 1 + k / 8 % 6;
			faces += ck_face_bit(dice[i]);
		}
		int want = hg_ck_hits(dice, n);
		ck_assert_int_eq(ck_face_hits(faces), want);
		seen[want] = 1;
	}
	for (int h = 0; h <= CK_MAX_LIST; h++)	/* every count of hits came up */
		ck_assert_msg(seen[h], "no roll made %d hits", h);
}
END_TEST

/* hg_ck_deck_lay_out (a fixed store for each card) lays out what a loop over
 * each card's copies lays out, for both shipped decks, with none, some,
 * all or more than all of a card's copies elsewhere. */
START_TEST(deck_lay_out_agrees_with_a_loop)
{
	hg_prng r;
	hg_prng_seed(&r, "deck-lay-out");
	int emptied = 0, full = 0;
	for (int k = 0; k < 4000; k++) {
		const ck_deck *deck = &shared->decks[k % CK_NRELIGIONS];
		int out[CK_MAX_CARDS];
		unsigned char want[CK_MAX_DECK], got[CK_MAX_DECK];
		int n = 0;
		for (int c = 0; c < deck->ncards; c++) {
			int copies = deck->cards[c].copies;
			out[c] = k % 16 == 0 ? 0 : (int)hg_prng_below(&r, (uint32_t)copies + 3) - 1;
			for (int x = 0; x < copies - out[c]; x++)
				want[n++] = (unsigned char)c;
		}
		ck_assert_int_eq(hg_ck_deck_lay_out(deck, out, got), n);
		ck_assert_int_eq(memcmp(got, want, (size_t)n), 0);
		emptied += n == 0;
		full += n == deck->total;
	}
	ck_assert_int_gt(full, 100);	/* the whole deck, as set up */
	ck_assert_int_eq(emptied, 0);
}
END_TEST

/* ck_same_letters says what hg_ascii_caseless_eq says for every keyword
 * of the notation, against words of the same length: the keyword in
 * mixed case, or with one byte changed (a letter's neighbour, a digit, a
 * sign, a byte whose OR 0x20 is a letter). */
START_TEST(same_letters_agrees_with_caseless_eq)
{
	static const char *const kws[] = {
		"on", "at", "vs", "mod", "end", "won", "draw", "pass", "play", "army", "from",
		"with", "turn", "lost", "draws", "takes", "bonus", "castle", "attack", "reveal",
		"defence", "defense", "discard", "response", "discards", "incursion", "discarded"
	};
	static const char odd[] = "@[`{_-'.#09AZaz\x7f";
	hg_prng r;
	hg_prng_seed(&r, "same-letters");
	int same = 0, differ = 0;
	for (int k = 0; k < 40000; k++) {
		const char *kw = kws[hg_prng_below(&r, (uint32_t)HG_ARRAY_LEN(kws))];
		size_t n = strlen(kw);
		char w[32];
		for (size_t i = 0; i <= n; i++)
			w[i] = (char)(kw[i] && hg_prng_below(&r, 2) ? kw[i] - 32 : kw[i]);
		if (hg_prng_below(&r, 2)) {
			size_t at = hg_prng_below(&r, (uint32_t)n);
			w[at] = hg_prng_below(&r, 2) ? (char)(w[at] ^ (1 << hg_prng_below(&r, 7))) :
						       odd[hg_prng_below(&r, (uint32_t)sizeof odd - 1)];
			if (w[at] == '\0')
				w[at] = '0';
		}
		int want = hg_ascii_caseless_eq(w, kw);
		ck_assert_int_eq(ck_same_letters(w, kw, n), want);
		same += want;
		differ += !want;
	}
	ck_assert_int_gt(same, 10000);
	ck_assert_int_gt(differ, 10000);
}
END_TEST

/* The index by the buckets of the first and last bytes: ids that share
 * both bytes (and their length: "trovadores", "turcopolos"), ids whose
 * bytes differ but share buckets ("quq" and "1uq": 'q' and '1' have the
 * same low five bits), ids that differ only in the middle or only in
 * length, one-byte ids, and ids longer than an entry holds (left to
 * hg_names_find) are each found exactly as a scan finds them. */
START_TEST(spellings_index_by_ends)
{
	static const char *const ids[] = {
		"trovadores", "turcopolos", "tropa-1", "tropa-2", "tropa-11", "t1", "t", "tt",
		"axb", "ayb", "azb", "ab", "a-very-long-id-of-forty-bytes-or-so-x",
		"homs", "hama", "h", "Capital", "acre", "alepo", "a", "b", "ba", "bab",
		"quq", "1uq", "p-0", "0-p",
		/* ids past 16 bytes, which ck_spelling_find_n looks up out of
		 * line (17, 18, 32 bytes; 33 is too long for an entry) */
		"a-seventeen-bytes", "peregrinos-armados", "an-id-thirty-two-bytes-long-xyzw",
		"a-thirty-three-bytes-long-id-xyzw", "a-seventeen-bytez"
	};
	const int nids = (int)HG_ARRAY_LEN(ids);
	hg_names *names = hg_names_new();
	for (int i = 0; i < nids; i++)
		ck_assert_int_eq(hg_names_add(names, ids[i], i, NULL), 0);
	const hg_names *t[] = { names };
	ck_spellings sp;
	hg_ck_spellings_build(&sp, ids, nids, t, 1);
	/* every id but the two over-long ones has an entry ("Capital" folded),
	 * and each chain holds ids whose ends share buckets, in sorted order */
	ck_assert_int_eq(sp.n, nids - 2);
	for (int i = 0; i < sp.n; i++) {
		const ck_spelling *e = &sp.v[i];
		ck_assert_uint_le(e->len, CK_MAX_ID);
		if (e->next != CK_SPELL_NONE) {
			const ck_spelling *f = &sp.v[e->next];
			ck_assert_int_gt(e->next, i);
			ck_assert_uint_eq(ck_spell_bucket((unsigned char)f->name[0]),
					  ck_spell_bucket((unsigned char)e->name[0]));
			ck_assert_uint_eq(ck_spell_bucket((unsigned char)f->name[f->len - 1]),
					  ck_spell_bucket((unsigned char)e->name[e->len - 1]));
		}
	}
	/* each bucket pair's chain is exactly its entries: every entry on
	 * its own pair's chain, and the chains together as many as the
	 * entries */
	int chained = 0;
	for (int f = 0; f < CK_SPELL_BUCKETS; f++)
		for (int l = 0; l < CK_SPELL_BUCKETS; l++)
			for (unsigned i = sp.by_ends[f][l]; i != CK_SPELL_NONE; i = sp.v[i].next) {
				ck_assert_uint_lt(i, (unsigned)sp.n);
				ck_assert_uint_eq(ck_spell_bucket((unsigned char)sp.v[i].name[0]),
						  (unsigned)f);
				ck_assert_uint_eq(ck_spell_bucket((unsigned char)sp.v[i].name
								  [sp.v[i].len - 1]),
						  (unsigned)l);
				chained++;
			}
	ck_assert_int_eq(chained, sp.n);
	/* ids whose ends share buckets, not bytes, are told apart */
	ck_assert_int_eq(hg_ck_spelling_find(&sp, "quq")->value[0], nids - 9);
	ck_assert_int_eq(hg_ck_spelling_find(&sp, "1uq")->value[0], nids - 8);
	ck_assert_int_eq(hg_ck_spelling_find(&sp, "p-0")->value[0], nids - 7);
	ck_assert_int_eq(hg_ck_spelling_find(&sp, "0-p")->value[0], nids - 6);
	ck_assert_ptr_null(hg_ck_spelling_find(&sp, "1uQ"));
	ck_assert_ptr_null(hg_ck_spelling_find(&sp, "Quq"));
	ck_assert_ptr_null(hg_ck_spelling_find(&sp, "a-very-long-id-of-forty-bytes-or-so-x"));
	ck_assert_int_eq(hg_names_find(names, "a-very-long-id-of-forty-bytes-or-so-x"), 12);
	ck_assert_ptr_null(hg_ck_spelling_find(&sp, "a-thirty-three-bytes-long-id-xyzw"));
	ck_assert_int_eq(hg_ck_spelling_find(&sp, "an-id-thirty-two-bytes-long-xyzw")->value[0],
			 nids - 3);
	ck_assert_int_eq(hg_ck_spelling_find(&sp, "a-seventeen-bytez")->value[0], nids - 1);
	/* each id, each prefix of it, each with a byte changed, and words of
	 * other bytes: what the index finds is what a scan finds */
	for (int i = 0; i < nids; i++) {
		char w[64];
		size_t len = strlen(ids[i]);
		for (size_t cut = 0; cut <= len; cut++) {
			memcpy(w, ids[i], cut);
			w[cut] = '\0';
			ck_assert_ptr_eq(hg_ck_spelling_find(&sp, w), spelling_scan(&sp, w));
			ck_assert_ptr_eq(hg_ck_spelling_find_n(&sp, ids[i], cut), spelling_scan(&sp, w));
			for (size_t k = 0; k < cut; k++) {
				char keep = w[k];
				w[k] = (char)(keep ^ 1);
				ck_assert_ptr_eq(hg_ck_spelling_find(&sp, w), spelling_scan(&sp, w));
				w[k] = (char)0xc3;	/* a byte no index entry holds */
				ck_assert_ptr_eq(hg_ck_spelling_find(&sp, w), spelling_scan(&sp, w));
				w[k] = keep;
			}
		}
		const ck_spelling *e = hg_ck_spelling_find(&sp, ids[i]);
		if (e)
			ck_assert_int_eq(e->value[0], i);
	}
	hg_ck_spellings_free(&sp);
	/* no ids: an empty index, and nothing found */
	hg_ck_spellings_build(&sp, ids, 0, t, 1);
	for (int f = 0; f < CK_SPELL_BUCKETS; f++)
		for (int l = 0; l < CK_SPELL_BUCKETS; l++)
			ck_assert_int_eq(sp.by_ends[f][l], CK_SPELL_NONE);
	ck_assert_ptr_null(hg_ck_spelling_find(&sp, "homs"));
	hg_ck_spellings_free(&sp);
	hg_names_free(names);
}
END_TEST

START_TEST(spellings_agree_with_the_names)
{
	const char *ids[2 * CK_MAX_CARDS + CK_MAX_AREAS];
	for (int m = 0; m < shared->nmaps; m++) {
		const ck_map *mp = &shared->maps[m];
		for (int a = 0; a < mp->nareas; a++)
			ids[a] = mp->areas[a].id;
		const hg_names *t[] = { mp->names };
		ck_assert_int_eq(mp->spell.n, mp->nareas);
		check_spellings(&mp->spell, ids, mp->nareas, t, 1);
	}
	for (int i = 0; i < shared->nscenarios; i++) {
		const ck_scenario *sc = &shared->scenarios[i];
		for (int f = 0; f < sc->nfactions; f++)
			ids[f] = sc->factions[f].id;
		const hg_names *t[] = { sc->seats };
		check_spellings(&sc->spell, ids, sc->nfactions, t, 1);
	}
	int n = 0;
	for (int r = 0; r < CK_NRELIGIONS; r++)
		for (int c = 0; c < shared->decks[r].ncards; c++)
			ids[n++] = shared->decks[r].cards[c].id;
	const hg_names *t[] = { shared->decks[0].names, shared->decks[1].names };
	check_spellings(&shared->card_spell, ids, n, t, CK_NRELIGIONS);
	/* ids are kept folded, once; a word in capitals is left to
	 * hg_names_find, and so is a name no table holds */
	ck_spellings sp;
	const char *odd[] = { "Homs", "HOMS", "homs", "no-such-area" };
	hg_ck_spellings_build(&sp, odd, 4, t + 0, 0);
	ck_assert_int_eq(sp.n, 0);
	hg_ck_spellings_free(&sp);
	const hg_names *mt[] = { shared->maps[0].names };
	hg_ck_spellings_build(&sp, odd, 4, mt, 1);
	ck_assert_int_eq(sp.n, 1);
	ck_assert_ptr_null(hg_ck_spelling_find(&sp, "Homs"));
	ck_assert_int_eq(hg_ck_spelling_find(&sp, "homs")->value[0], area("homs"));
	hg_ck_spellings_free(&sp);
}
END_TEST

static void same_pos(hg_pos a, hg_pos b, const char *what, const char *body)
{
	ck_assert_msg(a.line == b.line && a.col == b.col &&
		      (a.file == b.file || (a.file && b.file && strcmp(a.file, b.file) == 0)),
		      "%s: position of %s differs", body, what);
}

#define SAME(x, y, what) ck_assert_msg((x) == (y), "%s: %s differs: %ld, %ld", body, what, \
				       (long)(x), (long)(y))

static void same_item(const ck_item *a, const ck_item *b, const char *body)
{
	SAME(a->card[0], b->card[0], "card[0]");
	SAME(a->card[1], b->card[1], "card[1]");
	same_pos(a->pos, b->pos, "item", body);
}

static void same_items(const ck_items *a, const ck_items *b, const char *body)
{
	SAME(a->given, b->given, "given");
	SAME(a->count, b->count, "count");
	SAME(a->n, b->n, "list length");
	same_pos(a->pos, b->pos, "list", body);
	for (int i = 0; i < a->n; i++)
		same_item(&a->v[i], &b->v[i], body);
}

static void same_roll(const ck_roll *a, const ck_roll *b, const char *body)
{
	SAME(a->given, b->given, "roll given");
	SAME(a->ndice, b->ndice, "dice");
	SAME(a->nmods, b->nmods, "mods");
	SAME(a->hits, b->hits, "hits");
	same_pos(a->pos, b->pos, "roll", body);
	same_pos(a->hits_pos, b->hits_pos, "hits", body);
	for (int i = 0; i < a->ndice; i++) {
		SAME(a->dice[i].v, b->dice[i].v, "die");
		same_pos(a->dice[i].pos, b->dice[i].pos, "die", body);
	}
	for (int i = 0; i < a->nmods; i++) {
		SAME(a->mods[i].from, b->mods[i].from, "mod from");
		SAME(a->mods[i].to, b->mods[i].to, "mod to");
		same_pos(a->mods[i].pos, b->mods[i].pos, "mod", body);
	}
}

static void same_attack(const ck_attack *a, const ck_attack *b, const char *body)
{
	SAME(a->target, b->target, "target");
	SAME(a->from, b->from, "from");
	SAME(a->nwith, b->nwith, "with");
	SAME(a->nresp, b->nresp, "responses");
	SAME(a->nturned, b->nturned, "turned");
	SAME(a->won, b->won, "won");
	SAME(a->choice, b->choice, "choice");
	SAME(a->castle, b->castle, "castle");
	same_pos(a->target_pos, b->target_pos, "target", body);
	same_pos(a->from_pos, b->from_pos, "from", body);
	same_pos(a->with_pos, b->with_pos, "with", body);
	same_pos(a->outcome_pos, b->outcome_pos, "outcome", body);
	same_pos(a->castle_pos, b->castle_pos, "castle", body);
	for (int i = 0; i < a->nwith; i++)
		same_item(&a->with[i], &b->with[i], body);
	for (int i = 0; i < a->nresp; i++) {
		SAME(a->resp[i].seat, b->resp[i].seat, "response seat");
		SAME(a->resp[i].side, b->resp[i].side, "response side");
		same_item(&a->resp[i].card, &b->resp[i].card, body);
		same_pos(a->resp[i].pos, b->resp[i].pos, "response", body);
	}
	for (int i = 0; i < a->nturned; i++) {
		SAME(a->turned[i].v, b->turned[i].v, "turned");
		same_pos(a->turned[i].pos, b->turned[i].pos, "turned", body);
	}
	same_roll(&a->roll[0], &b->roll[0], body);
	same_roll(&a->roll[1], &b->roll[1], body);
}

static void same_play(const ck_play *a, const ck_play *b, const char *body)
{
	same_item(&a->card, &b->card, body);
	SAME(a->on, b->on, "on");
	SAME(a->at, b->at, "at");
	SAME(a->castle, b->castle, "castle");
	same_pos(a->on_pos, b->on_pos, "on", body);
	same_pos(a->at_pos, b->at_pos, "at", body);
	same_pos(a->castle_pos, b->castle_pos, "castle", body);
	SAME(a->nmore, b->nmore, "castles");
	for (int i = 0; i < a->nmore; i++) {
		SAME(a->more_castles[i], b->more_castles[i], "castles");
		same_pos(a->more_pos[i], b->more_pos[i], "castles", body);
	}
	same_items(&a->draws, &b->draws, body);
	same_items(&a->takes, &b->takes, body);
	same_items(&a->discards, &b->discards, body);
	SAME(a->has_attack, b->has_attack, "has attack");
	if (a->has_attack)
		same_attack(&a->attack, &b->attack, body);
}

/* Every field the reading of an action sets. */
static void same_action(const hg_action *a, const hg_action *b, const char *body)
{
	SAME(a->kind, b->kind, "kind");
	SAME(a->seat, b->seat, "seat");
	SAME(a->end, b->end, "end");
	same_pos(a->pos, b->pos, "action", body);
	same_pos(a->seat_pos, b->seat_pos, "seat", body);
	switch (a->kind) {
	case CK_ACT_DRAW:
		same_items(&a->draw, &b->draw, body);
		break;
	case CK_ACT_DISCARD:
		same_item(&a->discard, &b->discard, body);
		break;
	case CK_ACT_INCURSION:
		SAME(a->inc.target, b->inc.target, "target");
		SAME(a->inc.die, b->inc.die, "die");
		same_pos(a->inc.target_pos, b->inc.target_pos, "target", body);
		same_pos(a->inc.die_pos, b->inc.die_pos, "die", body);
		same_item(&a->inc.card, &b->inc.card, body);
		same_items(&a->inc.discards, &b->inc.discards, body);
		break;
	case CK_ACT_PLAY:
		same_play(&a->play, &b->play, body);
		break;
	case CK_ACT_ATTACK:
		same_attack(&a->attack, &b->attack, body);
		break;
	case CK_ACT_REVEAL:
		same_item(&a->rev.card, &b->rev.card, body);
		same_play(&a->rev.args, &b->rev.args, body);
		SAME(a->rev.place, b->rev.place, "place");
		SAME(a->rev.die, b->rev.die, "die");
		same_pos(a->rev.place_pos, b->rev.place_pos, "place", body);
		same_pos(a->rev.die_pos, b->rev.die_pos, "die", body);
		SAME(a->rev.has_attack, b->rev.has_attack, "has attack");
		if (a->rev.has_attack)
			same_attack(&a->rev.attack, &b->rev.attack, body);
		break;
	case CK_ACT_PASS:
		break;
	}
}

/* Random words of each kind, for the random actions. */
typedef struct vocab {
	const char *seats[CK_MAX_SIDES + 2];
	int nseats;
	const char *areas[CK_MAX_AREAS];
	int nareas;
	const char *cards[2 * CK_MAX_CARDS];
	int ncards;
} vocab;

static void put_word(hg_buf *b, const char *w)
{
	hg_buf_printf(b, "%s%s", b->len ? " " : "", w);
}

static const char *pick(hg_prng *r, const char *const *v, int n)
{
	/* now and then a word of any kind */
	if (hg_prng_below(r, 12) == 0)
		return odd_words[hg_prng_below(r, (uint32_t)HG_ARRAY_LEN(odd_words))];
	return v[hg_prng_below(r, (uint32_t)n)];
}

static void put_items(hg_prng *r, const vocab *v, hg_buf *b, int hidden)
{
	int n = 1 + (int)hg_prng_below(r, 4);
	for (int i = 0; i < n; i++)
		put_word(b, hidden && hg_prng_below(r, 3) == 0 ? "?" : pick(r, v->cards, v->ncards));
}

static void put_roll(hg_prng *r, hg_buf *b)
{
	if (hg_prng_below(r, 5) == 0) {
		put_word(b, "?");
	} else {
		int n = 1 + (int)hg_prng_below(r, 6);
		for (int i = 0; i < n; i++)
			put_word(b, odd_words[7 + hg_prng_below(r, 6)]);
	}
	if (hg_prng_below(r, 3) == 0) {
		put_word(b, hg_prng_below(r, 2) ? "mod" : "MOD");
		int n = 1 + (int)hg_prng_below(r, 3);
		for (int i = 0; i < n; i++) {
			put_word(b, odd_words[6 + hg_prng_below(r, 12)]);
			hg_buf_puts(b, hg_prng_below(r, 2) ? ">" : " > ");
			hg_buf_puts(b, odd_words[6 + hg_prng_below(r, 12)]);
		}
	}
	if (hg_prng_below(r, 2)) {
		put_word(b, "=");
		put_word(b, odd_words[6 + hg_prng_below(r, 18)]);
	}
}

static void put_attack(hg_prng *r, const vocab *v, hg_buf *b)
{
	put_word(b, "attack");
	put_word(b, pick(r, v->areas, v->nareas));
	if (hg_prng_below(r, 2)) {
		put_word(b, "from");
		put_word(b, pick(r, v->areas, v->nareas));
	}
	if (hg_prng_below(r, 2)) {
		put_word(b, "with");
		put_items(r, v, b, 0);
	}
	for (int i = (int)hg_prng_below(r, 3); i > 0; i--) {
		put_word(b, "&");
		put_word(b, pick(r, v->seats, v->nseats));
		put_word(b, pick(r, v->cards, v->ncards));
		put_word(b, hg_prng_below(r, 2) ? "attack" : "defence");
	}
	if (hg_prng_below(r, 4) == 0) {
		put_word(b, "turn");
		for (int i = (int)hg_prng_below(r, 3); i >= 0; i--)
			put_word(b, pick(r, v->areas, v->nareas));
	}
	put_word(b, "/");
	put_roll(r, b);
	put_word(b, "vs");
	put_roll(r, b);
	put_word(b, "/");
	put_word(b, hg_prng_below(r, 2) ? "won" : "lost");
	switch (hg_prng_below(r, 4)) {
	case 0:
		put_word(b, "bonus");
		break;
	case 1:
		put_word(b, "castle");
		put_word(b, pick(r, v->areas, v->nareas));
		break;
	}
}

static void put_effect_args(hg_prng *r, const vocab *v, hg_buf *b, int draws)
{
	if (hg_prng_below(r, 3) == 0) {
		put_word(b, "on");
		put_word(b, pick(r, v->seats, v->nseats));
	}
	if (hg_prng_below(r, 4) == 0) {
		put_word(b, "at");
		put_word(b, pick(r, v->areas, v->nareas));
	}
	if (draws && hg_prng_below(r, 4) == 0) {
		put_word(b, "draws");
		put_items(r, v, b, 1);
	}
	if (hg_prng_below(r, 4) == 0) {
		put_word(b, "takes");
		put_items(r, v, b, 1);
	}
	if (hg_prng_below(r, 4) == 0) {
		put_word(b, "discards");
		put_items(r, v, b, 1);
	}
	if (hg_prng_below(r, 6) == 0) {
		put_word(b, "castle");
		put_word(b, pick(r, v->areas, v->nareas));
	}
}

/* A random action body, most often well formed. */
static void random_body(hg_prng *r, const vocab *v, hg_buf *b)
{
	switch (hg_prng_below(r, 7)) {
	case 0:
		put_word(b, "draw");
		if (hg_prng_below(r, 3) == 0)
			put_word(b, odd_words[6 + hg_prng_below(r, 18)]);
		if (hg_prng_below(r, 4))
			put_items(r, v, b, 1);
		break;
	case 1:
		put_word(b, "pass");
		if (hg_prng_below(r, 2))
			put_word(b, "end");
		break;
	case 2:
		put_word(b, "discard");
		put_items(r, v, b, 1);
		break;
	case 3:
		put_word(b, "incursion");
		put_word(b, pick(r, v->seats, v->nseats));
		put_word(b, "with");
		put_word(b, hg_prng_below(r, 4) ? pick(r, v->cards, v->ncards) : "?");
		if (hg_prng_below(r, 2)) {
			put_word(b, "/");
			put_word(b, hg_prng_below(r, 4) ? odd_words[7 + hg_prng_below(r, 6)] : "?");
		}
		if (hg_prng_below(r, 2)) {
			put_word(b, "discards");
			put_items(r, v, b, 1);
		}
		break;
	case 4:
		put_word(b, "play");
		put_word(b, pick(r, v->cards, v->ncards));
		put_effect_args(r, v, b, 1);
		if (hg_prng_below(r, 4) == 0)
			put_attack(r, v, b);
		break;
	case 5:
		put_attack(r, v, b);
		break;
	case 6:
		put_word(b, "reveal");
		put_word(b, pick(r, v->cards, v->ncards));
		put_effect_args(r, v, b, 0);
		if (hg_prng_below(r, 2))
			put_word(b, odd_words[36 + hg_prng_below(r, 3)]);
		if (hg_prng_below(r, 2)) {
			put_word(b, "/");
			put_word(b, hg_prng_below(r, 4) ? odd_words[7 + hg_prng_below(r, 6)] : "?");
			if (hg_prng_below(r, 3) == 0)
				put_attack(r, v, b);
		}
		break;
	}
}

/* One change of a word: replaced, dropped, doubled, in capitals. */
static void mutate(hg_prng *r, const char *body, hg_buf *out)
{
	char *copy = hg_xstrdup(body);
	size_t n = 0;
	char *words[256];
	for (char *w = strtok(copy, " "); w && n < 256; w = strtok(NULL, " "))
		words[n++] = w;
	size_t at = hg_prng_below(r, (uint32_t)n);
	int how = (int)hg_prng_below(r, 4);
	for (size_t i = 0; i < n; i++) {
		if (i != at) {
			put_word(out, words[i]);
			continue;
		}
		switch (how) {
		case 0:
			put_word(out, odd_words[hg_prng_below(r, (uint32_t)HG_ARRAY_LEN(odd_words))]);
			break;
		case 1:
			break;
		case 2:
			put_word(out, words[i]);
			put_word(out, words[i]);
			break;
		case 3:
			for (char *c = words[i]; *c; c++)
				if (*c >= 'a' && *c <= 'z')
					*c = (char)(*c - 32);
			put_word(out, words[i]);
			break;
		}
	}
	free(copy);
}

/* Reads an action and writes it back: the body written, or NULL for an
 * action refused (with at least one error, and an error of the action
 * syntax's or the names' first). */
static char *read_and_write(const hg_state *s, const char *seat, const char *text, int *refused)
{
	hg_diags d;
	hg_diags_init(&d);
	hg_action_text t;
	hg_pos pos = { "test.hgn", 3, 5 };
	char *out = NULL;
	*refused = 0;
	if (hg_action_text_set(&t, seat, text, pos, &d) == 0) {
		hg_action *a = hg_ck_class.parse(s, &t, &d);
		if (a) {
			ck_assert_msg(d.n == 0, "'%s: %s' read, with a diagnostic", seat, text);
			hg_buf bs, bb;
			hg_buf_init(&bs);
			hg_buf_init(&bb);
			hg_ck_class.format(s, a, &bs, &bb);
			out = hg_xstrdup(bb.data ? bb.data : "");
			hg_buf_free(&bs);
			hg_buf_free(&bb);
		} else {
			ck_assert_msg(d.nerrors >= 1, "'%s: %s' refused without an error", seat,
				      text);
			ck_assert_msg(strncmp(d.v[0].code, "ck.", 3) == 0, "'%s: %s': %s", seat, text,
				      d.v[0].code);
			*refused = 1;
		}
		hg_ck_class.free_action(a);
		hg_action_text_free(&t);
	}
	hg_diags_free(&d);
	return out;
}

/* Random actions, and each with a word changed: each is read, and what
 * is written of it reads back to the same writing, or it is refused with
 * an error. */
static void read_random_actions(const hg_state *s, const char *seed, int *read, int *refused)
{
	vocab v = { .nseats = 0 };
	for (int f = 0; f < s->sc->nfactions; f++)
		v.seats[v.nseats++] = s->sc->factions[f].id;
	v.seats[v.nseats++] = "P1";
	for (int a = 0; a < s->map->nareas; a++)
		v.areas[v.nareas++] = s->map->areas[a].id;
	for (int x = 0; x < CK_NRELIGIONS; x++)
		for (int c = 0; c < shared->decks[x].ncards; c++)
			v.cards[v.ncards++] = shared->decks[x].cards[c].id;
	hg_prng r;
	hg_prng_seed(&r, seed);
	for (int k = 0; k < 6000; k++) {
		hg_buf body, changed;
		hg_buf_init(&body);
		hg_buf_init(&changed);
		random_body(&r, &v, &body);
		const char *text = body.data;
		if (hg_prng_below(&r, 3) == 0) {
			mutate(&r, body.data, &changed);
			text = changed.data ? changed.data : "";
		}
		const char *seat = pick(&r, v.seats, v.nseats);
		int no;
		char *written = read_and_write(s, seat, text, &no);
		if (written) {
			char *again = read_and_write(s, seat, written, &no);
			ck_assert_msg(again != NULL, "'%s' (from '%s') not read back", written, text);
			ck_assert_str_eq(again, written);
			free(again);
			(*read)++;
		}
		*refused += no;
		free(written);
		hg_buf_free(&body);
		hg_buf_free(&changed);
	}
}

/* Ruling 17: each step of a gain past +2 turns a castle the record names. */
START_TEST(bonus_steps_past_two_name_their_castles)
{
	hg_state *s = game4(NULL);
	int j = faction(s, "jerusalen");
	s->p[j].bonus = 1;
	hg_pos here = { "test.hgn", 1, 1 };
	static const struct { const char *castles[4]; int gain; int ok; } cases[] = {
		{ { "acre", "jerusalen" }, 3, 1 },	/* two steps past +2, in any order */
		{ { "jerusalen", "acre" }, 3, 1 },
		{ { "acre" }, 2, 1 },			/* one step */
		{ { "acre" }, 3, 0 },			/* two steps, one castle named */
		{ { "acre", "acre" }, 3, 0 },		/* the same castle twice */
		{ { "acre", "jerusalen" }, 2, 0 },	/* one step, two named */
		{ { "acre", "jerusalen", "homs" }, 4, 0 },	/* not its castle */
		{ { "acre", "jerusalen" }, 4, 1 },	/* three steps, two castles: one lost */
		{ { NULL }, 1, 1 },			/* within +2 */
		{ { "acre" }, 1, 0 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		hg_state *t = hg_ck_class.clone(s);
		ck_play play;
		memset(&play, 0, sizeof play);
		play.castle = cases[i].castles[0] ? area(cases[i].castles[0]) : -1;
		for (int k = 1; k < 4 && cases[i].castles[k]; k++)
			play.more_castles[play.nmore++] = area(cases[i].castles[k]);
		hg_diags d;
		hg_diags_init(&d);
		int rc = hg_ck_bonus_gain(t, j, cases[i].gain, &play, here, &d);
		ck_assert_int_eq(rc == 0, cases[i].ok);
		ck_assert_int_eq(d.nerrors, !cases[i].ok);
		if (rc == 0) {
			ck_assert_int_eq(t->p[j].bonus, 1 + cases[i].gain > 2 ? 2 : 1 + cases[i].gain);
			for (int k = 0; k < 4 && cases[i].castles[k]; k++)
				ck_assert(t->plus1[area(cases[i].castles[k])]);
		}
		hg_diags_free(&d);
		hg_ck_class.free_state(t);
	}
	/* the notation: castle AREA AREA, formatted back */
	canonical(s, "jerusalen", "play trovadores castle Acre jerusalen",
		  "jerusalen: play trovadores castle acre jerusalen");
	hg_action_text at;
	hg_diags d;
	hg_diags_init(&d);
	ck_assert_int_eq(hg_action_text_set(&at, "jerusalen", "play trovadores castle acre jerusalen",
					    here, &d), 0);
	hg_action *a = hg_ck_class.parse(s, &at, &d);
	ck_assert_ptr_nonnull(a);
	ck_assert_int_eq(a->play.nmore, 1);
	hg_ck_class.free_action(a);
	hg_action_text_free(&at);
	hg_diags_free(&d);
	hg_ck_class.free_state(s);
}
END_TEST

START_TEST(random_actions_are_read_or_refused)
{
	int read = 0, refused = 0;
	hg_state *s = game4(NULL);
	read_random_actions(s, "parse-4", &read, &refused);
	hg_ck_class.free_state(s);
	s = game8("3rd-crusade", "Ana; Ben", NULL);
	read_random_actions(s, "parse-2", &read, &refused);
	hg_ck_class.free_state(s);
	ck_assert_int_gt(read, 1000);
	ck_assert_int_gt(refused, 1000);
}
END_TEST

/* The actions of random games, written as a record (several to a line,
 * as generated records put them) and read back by the parser, whose lexer
 * gathers their tokens in runs: each is read from those tokens without a
 * diagnostic, and the game replays to its end. */
START_TEST(parsed_records_are_read_from_their_tokens)
{
	static const char *const setups[][2] = {
		{ "2nd-crusade", "Ana; Ben; Cid; Dora" }, { "saladin", "A; B; C" },
		{ "3rd-crusade", "Ana; Ben" },
	};
	const char *const *setup = setups[_i % 3];
	char seed[32];
	snprintf(seed, sizeof seed, "parsed-%d", _i);
	hg_diags d;
	hg_diags_init(&d);
	hg_state *s = new_game(setup[0], setup[1], seed, &d);
	ck_assert_ptr_nonnull(s);
	hg_prng pick;
	hg_prng_seed(&pick, seed);
	hg_buf text, seat, body;
	hg_buf_init(&text);
	hg_buf_init(&seat);
	hg_buf_init(&body);
	hg_buf_printf(&text, "[Game \"crusader-kingdoms\"]\n[Date \"????.??.??\"]\n"
		      "[Players \"%s\"]\n[Result \"*\"]\n[Scenario \"%s\"]\n[Seed \"%s\"]\n\n",
		      setup[1], setup[0], seed);
	size_t actions = 0;
	while (!hg_ck_class.result(s)) {
		hg_action_list l;
		hg_action *a = pick_legal(s, &pick, &l, &seat, &body);
		ck_assert_int_eq(hg_ck_class.apply(s, a, &d), 0);
		hg_buf_printf(&text, "%s: %s%s", seat.data, body.data,
			      hg_prng_below(&pick, 3) ? "\n" : " ");
		actions++;
		free_legal(&l);
	}
	hg_buf_puts(&text, "*\n");
	hg_ck_class.free_state(s);

	hg_parser *p = hg_parser_open_mem("parsed.hgn", text.data, text.len);
	hg_game_record *g;
	ck_assert_int_eq(hg_parser_next(p, &g, &d), 1);
	ck_assert_uint_eq(d.n, 0);
	s = new_game(setup[0], setup[1], seed, &d);
	size_t read = 0;
	for (size_t i = 0; i < g->moves.n; i++) {
		const hg_node *n = &g->moves.nodes[i];
		if (n->kind != HG_NODE_ACTION)
			continue;
		hg_action *a = hg_ck_class.parse(s, &n->action, &d);
		ck_assert_msg(a != NULL, "'%s: %s' not read", n->action.seat, n->action.text);
		ck_assert_uint_eq(d.n, 0);
		ck_assert_int_eq(hg_ck_class.apply(s, a, &d), 0);
		ck_assert_uint_eq(d.nerrors, 0);
		hg_ck_class.free_action(a);
		read++;
	}
	ck_assert_uint_eq(read, actions);
	ck_assert_ptr_nonnull(hg_ck_class.result(s));
	hg_ck_class.free_state(s);
	hg_record_free(g);
	hg_parser_close(p);
	hg_buf_free(&text);
	hg_buf_free(&seat);
	hg_buf_free(&body);
	hg_diags_free(&d);
}
END_TEST

/* Every keyword of the action syntax (notation-words.h), in capitals,
 * reads as in small letters (notation.c, token_is), into the same action. */
START_TEST(token_reading_knows_every_keyword)
{
	static const char *const bodies[] = {
		"pass end",
		"attack homs from hama with tropa-1 turn acre / 1 mod 1 > 4 = 1 vs 2 = 0 / won castle acre",
		"play incursion on jerusalen at homs draws tropa-1 takes tropa-2 discards tropa-3 castle acre",
		"reveal tropa-1 army / 3",
		"reveal tropa-1 response",
		"reveal tropa-1 discarded",
		"incursion jerusalen with tropa-1 / 5 discards ?",
	};
	hg_state *s = game4(NULL);
	for (size_t i = 0; i < HG_ARRAY_LEN(bodies); i++) {
		for (int caps = 0; caps < 2; caps++) {
			char body[256];
			snprintf(body, sizeof body, "%s", bodies[i]);
			/* capitals for the keywords, not for the names (which
			 * hg_names_find reads) */
			for (char *w = caps ? strtok(body, " ") : NULL; w; w = strtok(NULL, " ")) {
				if (strcmp(w, "homs") == 0 || strcmp(w, "hama") == 0 ||
				    strcmp(w, "acre") == 0 || strcmp(w, "jerusalen") == 0 ||
				    strncmp(w, "tropa", 5) == 0 || strcmp(w, "incursion") == 0)
					continue;
				for (char *c = w; *c; c++)
					*c = (char)(*c >= 'a' && *c <= 'z' ? *c - 32 : *c);
			}
			if (caps)	/* strtok cut the words apart: join them again */
				for (size_t k = 0; k < strlen(bodies[i]); k++)
					if (body[k] == '\0')
						body[k] = ' ';
			hg_diags d;
			hg_diags_init(&d);
			hg_action_text t, small;
			hg_pos pos = { "test.hgn", 3, 5 };
			ck_assert_int_eq(hg_action_text_set(&t, "damasco", body, pos, &d), 0);
			ck_assert_int_eq(hg_action_text_set(&small, "damasco", bodies[i], pos, &d),
					 0);
			hg_action *a = hg_ck_class.parse(s, &t, &d);
			ck_assert_msg(a != NULL, "'%s' is not read", body);
			hg_action *b = hg_ck_class.parse(s, &small, &d);
			ck_assert_ptr_nonnull(b);
			ck_assert_uint_eq(d.n, 0);
			same_action(a, b, body);
			hg_ck_class.free_action(a);
			hg_ck_class.free_action(b);
			hg_action_text_free(&t);
			hg_action_text_free(&small);
			hg_diags_free(&d);
		}
	}
	hg_ck_class.free_state(s);
}
END_TEST

/* The spare action block (ck_parse_alloc, ck_free_action): an action read
 * into the block the last one left builds what a reading into a new block
 * builds (a fresh state has no spare), in the same block when it is large
 * enough for the action's lists; the cache (action-cache.h) is counted by
 * the state, its clones and the actions, and an action may outlive them
 * all (the sanitizer build sees any use after free). */
START_TEST(spare_action_block_agrees_with_a_new_one)
{
	hg_state *s = game4(NULL);
	vocab v = { .nseats = 0 };
	for (int f = 0; f < s->sc->nfactions; f++)
		v.seats[v.nseats++] = s->sc->factions[f].id;
	for (int a = 0; a < s->map->nareas; a++)
		v.areas[v.nareas++] = s->map->areas[a].id;
	for (int x = 0; x < CK_NRELIGIONS; x++)
		for (int c = 0; c < shared->decks[x].ncards; c++)
			v.cards[v.ncards++] = shared->decks[x].cards[c].id;
	hg_prng r;
	hg_prng_seed(&r, "spare");
	int reused = 0, read = 0;
	for (int k = 0; k < 3000; k++) {
		hg_buf body;
		hg_buf_init(&body);
		random_body(&r, &v, &body);
		const char *seat = pick(&r, v.seats, v.nseats);
		hg_diags d;
		hg_diags_init(&d);
		hg_action_text t;
		hg_pos pos = { "test.hgn", 7, 2 };
		if (hg_action_text_set(&t, seat, body.data, pos, &d) == 0) {
			hg_action *spare = s->actions->spare;
			size_t spare_size = spare ? hg_action_block_size(spare) : 0;
			hg_action *a = ck_parse(s, &t, NULL);
			hg_state *fresh = hg_ck_state_new(shared, s->sc, NULL);
			ck_assert_ptr_null(fresh->actions->spare);
			hg_action *b = ck_parse(fresh, &t, NULL);
			ck_assert_msg((a != NULL) == (b != NULL), "'%s: %s' read once only", seat,
				      body.data);
			if (a) {
				if (spare) {
					/* taken, or too small and freed */
					ck_assert_ptr_null(s->actions->spare);
					if (a == spare)
						reused++;
					else
						ck_assert_uint_gt(hg_action_block_size(a),
								  spare_size);
				}
				ck_assert_uint_eq(s->actions->refs, 2);
				same_action(a, b, body.data);
				hg_buf as, ab, bs, bb;
				hg_buf_init(&as);
				hg_buf_init(&ab);
				hg_buf_init(&bs);
				hg_buf_init(&bb);
				hg_ck_class.format(s, a, &as, &ab);
				hg_ck_class.format(fresh, b, &bs, &bb);
				ck_assert_str_eq(as.data, bs.data);
				ck_assert_str_eq(ab.data, bb.data);
				hg_buf_free(&as);
				hg_buf_free(&ab);
				hg_buf_free(&bs);
				hg_buf_free(&bb);
				read++;
			}
			/* b outlives its state */
			hg_ck_class.free_state(fresh);
			hg_ck_class.free_action(b);
			hg_ck_class.free_action(a);
			ck_assert_uint_eq(s->actions->refs, 1);
			if (a)
				ck_assert_ptr_eq(s->actions->spare, a);
			hg_action_text_free(&t);
		}
		hg_diags_free(&d);
		hg_buf_free(&body);
	}
	ck_assert_int_gt(read, 1000);
	ck_assert_int_gt(reused, read / 2);

	/* clones share the part; two actions out at once: one goes back as
	 * the spare, the other is freed */
	hg_state *c = hg_ck_class.clone(s);
	ck_assert_ptr_eq(c->actions, s->actions);
	ck_assert_uint_eq(s->actions->refs, 2);
	hg_action_text t1, t2;
	hg_diags d;
	hg_diags_init(&d);
	hg_pos pos = { "test.hgn", 1, 1 };
	ck_assert_int_eq(hg_action_text_set(&t1, v.seats[0], "pass", pos, &d), 0);
	ck_assert_int_eq(hg_action_text_set(&t2, v.seats[1], "pass end", pos, &d), 0);
	hg_action *a1 = ck_parse(c, &t1, NULL);
	hg_action *a2 = ck_parse(s, &t2, NULL);
	ck_assert_ptr_nonnull(a1);
	ck_assert_ptr_nonnull(a2);
	ck_assert_uint_eq(s->actions->refs, 4);
	ck_assert_int_eq(a1->end, 0);
	ck_assert_int_eq(a2->end, 1);
	hg_ck_class.free_state(s);
	hg_ck_class.free_action(a2);
	ck_assert_ptr_eq(c->actions->spare, a2);
	hg_ck_class.free_state(c);
	ck_assert_uint_eq(a1->home->refs, 1);
	hg_ck_class.free_action(a1);	/* the last reference: all is freed */
	hg_action_text_free(&t1);
	hg_action_text_free(&t2);
	hg_diags_free(&d);
}
END_TEST

/* A scripted side's hand is a view of its face-down cards: after a card
 * taken by name (hg_ck_stack_take_named, which rebuilds it once, after both
 * of its changes), its known cards sure, the others wild, as a scan of
 * the stack says, over many random stacks and takes. */
START_TEST(stack_take_named_leaves_the_hand_a_view)
{
	hg_state *s = game8("1st-crusade", "Bohemond", NULL);
	int f = faction(s, "musulmanes");
	const ck_deck *k = &s->data->decks[CK_MUSLIM];
	hg_prng r;
	hg_prng_seed(&r, "unit-take-named");
	int taken = 0;
	for (int round = 0; round < 3000; round++) {
		s->p[f].tab.nstack = 0;
		int n = 1 + (int)hg_prng_below(&r, 12);
		for (int i = 0; i < n; i++) {
			int c = hg_prng_below(&r, 4) == 0 ? -1 :
				(int)hg_prng_below(&r, (uint32_t)k->ncards);
			hg_ck_stack_push(s, f, CK_MUSLIM, c);
		}
		int want = hg_prng_below(&r, 5) == 0 ? -1 :
			   (int)hg_prng_below(&r, (uint32_t)k->ncards);
		int before = s->p[f].tab.nstack;
		if (hg_ck_stack_take_named(s, f, CK_MUSLIM, want) == 0) {
			ck_assert_int_eq(s->p[f].tab.nstack, before - 1);
			taken++;
		} else {
			ck_assert_int_eq(s->p[f].tab.nstack, before);
		}
		hand_is_the_stacks_view(s, f);
	}
	ck_assert_int_gt(taken, 1000);
	hg_ck_class.free_state(s);
}
END_TEST

/* A pile just shuffled (nothing drawn from it yet) is its cards in the
 * order the stream "<Seed>/<deck>/<turn>" shuffles them into, from the
 * order hg_ck_deck_lay_out puts them in (by card, ascending). */
static void pile_is_the_seeds_shuffle(const hg_state *s, const char *seed, int r)
{
	const ck_pile *p = &s->pile[r];
	ck_assert(p->exact);
	ck_assert_int_eq(p->head, 0);
	unsigned char want[CK_MAX_DECK];
	int count[CK_MAX_CARDS] = { 0 }, n = 0;
	for (int i = 0; i < p->n; i++)
		count[p->order[i]]++;
	for (int c = 0; c < CK_MAX_CARDS; c++)
		for (int k = 0; k < count[c]; k++)
			want[n++] = (unsigned char)c;
	char key[128];
	snprintf(key, sizeof key, "%s/%s/%d", seed, s->data->decks[r].id, s->turn);
	hg_prng stream;
	hg_prng_seed(&stream, key);
	hg_prng_shuffle(&stream, want, (size_t)n, 1);
	ck_assert_int_eq(n, p->n);
	ck_assert(memcmp(want, p->order, (size_t)n) == 0);
}

/* A scenario of each size, and its players. */
static const char *const every_scenario[][2] = {
	{ "2nd-crusade", "A; B; C; D" }, { "saladin", "A; B; C" },
	{ "3rd-crusade", "A; B" }, { "1st-crusade", "A" },
};

/* Each turn's new pile (the set-up's, each turn's end) is the shuffle of
 * that turn's stream, "<Seed>/<deck>/<turn>" formatted and seeded here
 * apart from the engine's seeding, in random games of each scenario. */
START_TEST(each_turns_shuffle_follows_the_seed)
{
	char seed[32];
	snprintf(seed, sizeof seed, "unit-turns-%d", _i);
	hg_diags d;
	hg_diags_init(&d);
	hg_state *s = new_game(every_scenario[_i % 4][0], every_scenario[_i % 4][1], seed, &d);
	ck_assert_ptr_nonnull(s);
	hg_prng pick;
	hg_prng_seed(&pick, seed);
	int turn = 0, checked = 0;
	for (size_t steps = 0; !hg_ck_class.result(s); steps++) {
		ck_assert_uint_lt(steps, 20000);
		if (s->turn != turn) {
			turn = s->turn;
			for (int r = 0; r < CK_NRELIGIONS; r++)
				if (s->pile[r].exact) {
					pile_is_the_seeds_shuffle(s, seed, r);
					checked++;
				}
		}
		hg_action_list l = { NULL, 0, 0 };
		hg_ck_class.legal(s, &l);
		ck_assert_uint_gt(l.n, 0);
		ck_assert_int_eq(hg_ck_class.apply(s, l.v[hg_prng_below(&pick, (uint32_t)l.n)], &d),
				 0);
		for (size_t i = 0; i < l.n; i++)
			hg_ck_class.free_action(l.v[i]);
		free(l.v);
	}
	/* the first turn's piles at least */
	ck_assert_int_ge(checked, 2);
	hg_ck_class.free_state(s);
	hg_diags_free(&d);
}
END_TEST

/* A state is allocated for its scenario's sides (ck_state_size), not for
 * CK_MAX_SIDES: a clone must copy every side, and be a position of its
 * own.  In random games of each scenario, at every action the clone is the
 * position, side by side, and the action applied to both leaves them the
 * same. */
START_TEST(clone_copies_every_side)
{
	char seed[32];
	snprintf(seed, sizeof seed, "unit-clone-%d", _i);
	hg_diags d;
	hg_diags_init(&d);
	hg_state *s = new_game(every_scenario[_i % 4][0], every_scenario[_i % 4][1], _i % 8 < 4 ? seed : NULL, &d);
	ck_assert_ptr_nonnull(s);
	ck_assert_int_eq(s->nsides, s->sc->nfactions);
	ck_assert_uint_eq(ck_state_size(s),
			  offsetof(hg_state, p) + (size_t)s->nsides * sizeof(ck_player));
	hg_prng pick;
	hg_prng_seed(&pick, seed);
	for (size_t steps = 0; !hg_ck_class.result(s); steps++) {
		ck_assert_uint_lt(steps, 20000);
		hg_state *c = hg_ck_class.clone(s);
		ck_assert(same_state(c, s));
		ck_assert(memcmp(c->p, s->p, (size_t)s->nsides * sizeof *s->p) == 0);
		hg_action_list l = { NULL, 0, 0 };
		hg_ck_class.legal(s, &l);
		ck_assert_uint_gt(l.n, 0);
		hg_action *a = l.v[hg_prng_below(&pick, (uint32_t)l.n)];
		ck_assert_int_eq(hg_ck_class.apply(c, a, &d), 0);
		ck_assert_int_eq(hg_ck_class.apply(s, a, &d), 0);
		ck_assert(same_state(c, s));
		hg_ck_class.free_state(c);
		for (size_t i = 0; i < l.n; i++)
			hg_ck_class.free_action(l.v[i]);
		free(l.v);
	}
	hg_ck_class.free_state(s);
	hg_diags_free(&d);
}
END_TEST

Suite *unit_suite(void)
{
	Suite *s = suite_create("crusader-kingdoms");
	TCase *tc = tcase_create("engine");
	tcase_add_checked_fixture(tc, load_shared, unload_shared);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, shipped_data_is_complete);
	tcase_add_test(tc, loader_accepts_a_small_map);
	tcase_add_test(tc, loader_rejects_bad_maps);
	tcase_add_test(tc, loader_checks_the_effect_vocabulary);
	tcase_add_test(tc, custom_scenario_options);
	tcase_add_test(tc, notation_canonical_forms);
	tcase_add_test(tc, notation_spanish_keywords);
	tcase_add_test(tc, action_text_says_whether_it_is_ascii);
	tcase_add_test(tc, scenario_printed_names);
	tcase_add_test(tc, section6_draw_example);
	tcase_add_test(tc, turn_order_and_draws);
	tcase_add_test(tc, worked_combat_example);
	tcase_add_test(tc, worked_example_variants);
	tcase_add_test(tc, bonus_limits);
	tcase_add_test(tc, incursions);
	tcase_add_test(tc, events);
	tcase_add_test(tc, final_result_and_ties);
	tcase_add_test(tc, saladin_christians_do_not_attack_each_other);
	tcase_add_test(tc, hidden_cards_are_unverified);
	tcase_add_loop_test(tc, random_games_4p, 0, 40);
	tcase_add_loop_test(tc, random_games_3p, 0, 40);
	tcase_add_loop_test(tc, random_games_unseeded, 0, 2);
	tcase_add_test(tc, section8_data);
	tcase_add_test(tc, section8_loader);
	tcase_add_test(tc, worked_script_example);
	tcase_add_test(tc, script_places_and_events);
	tcase_add_test(tc, script_defence);
	tcase_add_test(tc, cooperative_rounds);
	tcase_add_test(tc, script_face_down_cards);
	tcase_add_test(tc, victory_points_and_levels);
	tcase_add_test(tc, hidden_dice_attacks_against_brute_force);
	tcase_add_test(tc, hidden_dice_incursions_against_brute_force);
	tcase_add_test(tc, hidden_army_die_against_brute_force);
	tcase_add_test(tc, bonus_difference_tag);
	tcase_add_loop_test(tc, random_games_1p, 0, 40);
	tcase_add_loop_test(tc, clone_copies_every_side, 0, 16);
	tcase_add_loop_test(tc, random_games_2p, 0, 40);
	tcase_add_loop_test(tc, random_games_section8_unseeded, 0, 4);
	tcase_add_test(tc, gen_tags_pick_a_scenario);
	tcase_add_test(tc, scenario_masks_agree_with_the_factions);
	tcase_add_test(tc, borders_are_symmetric);
	tcase_add_test(tc, same_bytes_agrees_with_memcmp);
	tcase_add_test(tc, same_id_agrees_with_memcmp);
	tcase_add_test(tc, face_hits_agree_with_the_dice);
	tcase_add_test(tc, deck_lay_out_agrees_with_a_loop);
	tcase_add_test(tc, same_letters_agrees_with_caseless_eq);
	tcase_add_test(tc, spellings_agree_with_the_names);
	tcase_add_test(tc, spellings_index_by_ends);
	tcase_add_test(tc, token_reading_knows_every_keyword);
	tcase_add_test(tc, random_actions_are_read_or_refused);
	tcase_add_test(tc, bonus_steps_past_two_name_their_castles);
	tcase_add_loop_test(tc, parsed_records_are_read_from_their_tokens, 0, 12);
	tcase_add_test(tc, spare_action_block_agrees_with_a_new_one);
	tcase_add_loop_test(tc, each_turns_shuffle_follows_the_seed, 0, 24);
	tcase_add_test(tc, stack_take_named_leaves_the_hand_a_view);
	suite_add_tcase(s, tc);
	return s;
}
