/* test-data-facts.c - the shipped data against the published facts and the
 * provenance scheme (herald-data(5)), so that a later edit cannot drift
 * from them silently:
 *   - every value of every shipped file is marked, and every published or
 *     rule-text value names its source;
 *   - Crusader Kingdoms (the publisher's description): two decks, Muslim
 *     and Christian; three kinds of card, troops marked with their
 *     strength; two maps, the Saladin / 2nd Crusade map for 3 and 4
 *     players and the 1st and 3rd Crusades map for 1 and 2; three turns;
 *   - The Kingdoms of Crusaders (the publishers' component lists): 15
 *     victory markers, 2 location cards, 5 locations, and the engine's five
 *     sectors and four players at most (two boxes); the deck size is the
 *     deck file's own test;
 *   - Encrucijada (the designer's interview): in each reconstructed
 *     civilisation espada cards have the highest mean value (strong in
 *     attack), basto cards are most of the cards that give resources, and
 *     copa cards most often have an effect. */
#include "unit.h"

#include <string.h>

#include "herald-engine.h"
#include "koc.h"

#define DATA HERALD_SRCDATADIR "/"

static hg_ydoc *load(const char *rel)
{
	char path[512];
	snprintf(path, sizeof path, "%s%s", DATA, rel);
	hg_diags d;
	hg_diags_init(&d);
	hg_ydoc *doc = hg_yaml_load_file(path, &d);
	ck_assert_msg(doc != NULL, "%s does not load", rel);
	hg_diags_free(&d);
	return doc;
}

static const char *scalar(const hg_ynode *map, const char *key)
{
	const hg_ynode *v = hg_ymap_get(map, key);
	return v && v->kind == HG_Y_SCALAR ? v->scalar : NULL;
}

static const char *const shipped[] = {
	"crusader-kingdoms/scenarios.yaml", "crusader-kingdoms/map-saladino.yaml",
	"crusader-kingdoms/map-cruzadas.yaml", "crusader-kingdoms/map-layout.yaml",
	"crusader-kingdoms/deck-muslim.yaml", "crusader-kingdoms/deck-christian.yaml",
	"kingdoms-of-crusaders/deck.yaml",
	"encrucijada/resources.yaml", "encrucijada/towers.yaml",
	"encrucijada/cards-aurora.yaml", "encrucijada/cards-ocaso.yaml",
	"encrucijada/cards-pacificadores.yaml",
	"encrucijada/decks/aurora-vanguardia.yaml", "encrucijada/decks/aurora-cosecha.yaml",
	"encrucijada/decks/ocaso-sombras.yaml", "encrucijada/decks/ocaso-ritual.yaml",
	"encrucijada/decks/concordia-mixta.yaml", NULL
};

START_TEST(every_value_marked)
{
	for (size_t f = 0; shipped[f]; f++) {
		hg_ydoc *doc = load(shipped[f]);
		hg_provs p;
		hg_provs_init(&p);
		hg_diags d;
		hg_diags_init(&d);
		ck_assert_msg(hg_provs_collect(&p, doc, &d) == 0, "%s: bad marks", shipped[f]);
		for (size_t i = 0; i < p.n; i++) {
			const hg_prov *e = &p.v[i];
			ck_assert_msg(e->kind != HG_PROV_UNSTATED, "%s: %s is unstated",
				      shipped[f], e->datum);
			if (e->kind == HG_PROV_PUBLISHED || e->kind == HG_PROV_RULE_TEXT)
				ck_assert_msg(e->source != NULL, "%s: %s (%s) names no source",
					      shipped[f], e->datum, hg_prov_kind_name(e->kind));
		}
		hg_provs_free(&p);
		hg_diags_free(&d);
		hg_ydoc_free(doc);
	}
}
END_TEST

static hg_prov_kind kind_in(const char *rel, const char *datum)
{
	hg_ydoc *doc = load(rel);
	hg_provs p;
	hg_provs_init(&p);
	hg_diags d;
	hg_diags_init(&d);
	hg_provs_collect(&p, doc, &d);
	const hg_prov *e = hg_provs_find(&p, NULL, datum);
	ck_assert_msg(e != NULL, "%s: no %s", rel, datum);
	hg_prov_kind k = e->kind;
	hg_provs_free(&p);
	hg_diags_free(&d);
	hg_ydoc_free(doc);
	return k;
}

START_TEST(ck_two_decks_three_kinds)
{
	static const char *const decks[] = { "crusader-kingdoms/deck-muslim.yaml",
					     "crusader-kingdoms/deck-christian.yaml" };
	static const char *const religions[] = { "muslim", "christian" };
	int kinds[3] = { 0, 0, 0 };
	static const char *const kind_names[] = { "troop", "event", "response" };
	for (int i = 0; i < 2; i++) {
		hg_ydoc *doc = load(decks[i]);
		ck_assert_str_eq(scalar(doc->root, "religion"), religions[i]);
		const hg_ynode *cards = hg_ymap_get(doc->root, "cards");
		ck_assert_ptr_nonnull(cards);
		for (size_t c = 0; c < cards->n; c++) {
			const char *type = scalar(cards->items[c], "type");
			int k = 0;
			while (k < 3 && strcmp(type, kind_names[k]) != 0)
				k++;
			ck_assert_msg(k < 3, "a card of a fourth kind '%s'", type);
			kinds[k]++;
			if (k == 0)	/* troops are marked with their strength */
				ck_assert_ptr_nonnull(scalar(cards->items[c], "strength"));
		}
		hg_ydoc_free(doc);
		ck_assert_int_eq(kind_in(decks[i], "religion"), HG_PROV_PUBLISHED);
	}
	for (int k = 0; k < 3; k++)
		ck_assert_int_gt(kinds[k], 0);
}
END_TEST

/* The players of every scenario on map `id`, as a bit set. */
static unsigned players_on(const hg_ynode *scenarios, const char *id)
{
	unsigned set = 0;
	for (size_t i = 0; i < scenarios->n; i++)
		if (strcmp(scalar(scenarios->items[i], "map"), id) == 0)
			set |= 1u << atoi(scalar(scenarios->items[i], "players"));
	return set;
}

START_TEST(ck_two_maps_three_turns)
{
	hg_ydoc *doc = load("crusader-kingdoms/scenarios.yaml");
	const hg_ynode *maps = hg_ymap_get(doc->root, "maps");
	ck_assert_uint_eq(maps->n, 2);
	const hg_ynode *scenarios = hg_ymap_get(doc->root, "scenarios");
	ck_assert_uint_eq(players_on(scenarios, "saladino"), (1u << 3) | (1u << 4));
	ck_assert_uint_eq(players_on(scenarios, "cruzadas"), (1u << 1) | (1u << 2));
	for (size_t i = 0; i < scenarios->n; i++) {
		ck_assert_str_eq(scalar(scenarios->items[i], "turns"), "3");
		char datum[128];
		snprintf(datum, sizeof datum, "scenarios.%s.turns", scalar(scenarios->items[i], "id"));
		ck_assert_int_eq(kind_in("crusader-kingdoms/scenarios.yaml", datum),
				 HG_PROV_PUBLISHED);
	}
	hg_ydoc_free(doc);
	ck_assert_int_eq(kind_in("crusader-kingdoms/map-saladino.yaml", "name"), HG_PROV_PUBLISHED);
	ck_assert_int_eq(kind_in("crusader-kingdoms/map-cruzadas.yaml", "name"), HG_PROV_PUBLISHED);
	/* 2.4: on the 1- and 2-player side, areas numbered 1 to 14 */
	doc = load("crusader-kingdoms/map-cruzadas.yaml");
	const hg_ynode *areas = hg_ymap_get(doc->root, "areas");
	ck_assert_uint_eq(areas->n, 14);
	unsigned seen = 0;
	for (size_t i = 0; i < areas->n; i++)
		seen |= 1u << atoi(scalar(areas->items[i], "number"));
	ck_assert_uint_eq(seen, 0x7FFEu);
	hg_ydoc_free(doc);
	/* the rule text's facts keep their mark */
	ck_assert_int_eq(kind_in("crusader-kingdoms/map-saladino.yaml", "areas.homs.defence"),
			 HG_PROV_RULE_TEXT);
	ck_assert_int_eq(kind_in("crusader-kingdoms/map-cruzadas.yaml", "areas.jerusalen.number"),
			 HG_PROV_RULE_TEXT);
}
END_TEST

START_TEST(koc_components)
{
	static const char file[] = "kingdoms-of-crusaders/deck.yaml";
	hg_ydoc *doc = load(file);
	ck_assert_str_eq(scalar(doc->root, "victory_markers"), "15");
	ck_assert_str_eq(scalar(doc->root, "location_cards"), "2");
	ck_assert_uint_eq(hg_ymap_get(doc->root, "locations")->n, 5);
	ck_assert_uint_eq(hg_ymap_get(doc->root, "cards")->n, 56);
	hg_ydoc_free(doc);
	ck_assert_int_eq(kind_in(file, "victory_markers"), HG_PROV_PUBLISHED);
	ck_assert_int_eq(kind_in(file, "location_cards"), HG_PROV_PUBLISHED);
	ck_assert_int_eq(kind_in(file, "locations.4.name"), HG_PROV_PUBLISHED);
	ck_assert_int_eq(kind_in(file, "locations.4.number"), HG_PROV_RECONSTRUCTED);
	ck_assert_int_eq(kind_in(file, "cards.c56.symbols"), HG_PROV_RECONSTRUCTED);
	/* the engine: a location card of five sectors (the rule sheet: "A
	 * Location card has five sectors"), one a location; two location
	 * cards to a box, so three and four players mix two decks */
	ck_assert_int_eq(KOC_SECTORS, 5);
	ck_assert_int_eq(KOC_MAX_PLAYERS, 2 * 2);
}
END_TEST

typedef struct suit_stats {
	int n, value, resources, effects;
} suit_stats;

enum { ORO, COPA, BASTO, ESPADA, NSUITS };
static const char *const suits[] = { "oro", "copa", "basto", "espada" };

START_TEST(enc_suits_roles)
{
	static const char *const civs[] = { "encrucijada/cards-aurora.yaml",
					    "encrucijada/cards-ocaso.yaml" };
	for (int f = 0; f < 2; f++) {
		suit_stats st[NSUITS];
		memset(st, 0, sizeof st);
		hg_ydoc *doc = load(civs[f]);
		const hg_ynode *cards = hg_ymap_get(doc->root, "cards");
		for (size_t c = 0; c < cards->n; c++) {
			const hg_ynode *card = cards->items[c];
			int s = 0;
			while (s < NSUITS && strcmp(scalar(card, "suit"), suits[s]) != 0)
				s++;
			ck_assert_int_lt(s, NSUITS);
			st[s].n++;
			st[s].value += atoi(scalar(card, "value"));
			st[s].resources += hg_ymap_get(card, "resources") != NULL;
			st[s].effects += hg_ymap_get(card, "effect") != NULL;
		}
		hg_ydoc_free(doc);
		for (int s = 0; s < NSUITS; s++)
			ck_assert_int_gt(st[s].n, 0);
		/* compared as fractions: a/b > c/d as a*d > c*b */
		for (int s = 0; s < NSUITS; s++) {
			if (s != ESPADA)	/* espada: strong in attack */
				ck_assert_msg(st[ESPADA].value * st[s].n > st[s].value * st[ESPADA].n,
					      "%s: espada's mean value is not the highest", civs[f]);
			if (s != BASTO)	/* basto: most of the cards that give resources */
				ck_assert_msg(st[BASTO].resources > st[s].resources,
					      "%s: basto does not give resources most", civs[f]);
			if (s != COPA && s != ORO)	/* copa: good effects */
				ck_assert_msg(st[COPA].effects * st[s].n > st[s].effects * st[COPA].n,
					      "%s: copa does not have effects most", civs[f]);
		}
	}
}
END_TEST

Suite *unit_suite(void)
{
	Suite *s = suite_create("data-facts");
	TCase *tc = tcase_create("data-facts");
	tcase_add_test(tc, every_value_marked);
	tcase_add_test(tc, ck_two_decks_three_kinds);
	tcase_add_test(tc, ck_two_maps_three_turns);
	tcase_add_test(tc, koc_components);
	tcase_add_test(tc, enc_suits_roles);
	suite_add_tcase(s, tc);
	return s;
}
