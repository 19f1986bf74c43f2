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
 *   - Encrucijada (the designer's interview: espada strong in attack, copa
 *     good effects, basto gives resources, oro special), card by card in
 *     each civilisation (herald-encrucijada(7), DATA);
 *   - every `source:` names its page or section by a descriptive title
 *     (herald-data(5), PROVENANCE). */
#include "unit.h"

#include <ctype.h>
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

/* What is wrong with a `source:`, or NULL.  A source says where a value
 * comes from in words a reader can look up (herald-data(5), PROVENANCE): a
 * title of at least four words, and no address (no URL, no domain name: a
 * page moves, its title stays). */
static const char *source_fault(const char *text)
{
	int words = 0;
	for (const char *c = text; *c; c++)
		if (*c != ' ' && (c == text || c[-1] == ' '))
			words++;
	if (words < 4)
		return "is not a descriptive title";
	if (strstr(text, "://") || strstr(text, "www."))
		return "is an address, not a title";
	for (const char *c = text; *c; c++)
		if (*c == '.' && c > text && isalpha((unsigned char)c[-1]) &&
		    isalpha((unsigned char)c[1]))
			return "names a domain, not a page's title";
	return NULL;
}

START_TEST(source_fault_refuses)
{
	ck_assert_ptr_nonnull(source_fault(""));
	ck_assert_ptr_nonnull(source_fault("publisher"));
	ck_assert_ptr_nonnull(source_fault("the publisher's page"));
	ck_assert_ptr_nonnull(source_fault("https://example.org/games/crusaders"));
	ck_assert_ptr_nonnull(source_fault("Encrucijada rules (heroesonlegends.com), 2, Recursos"));
	ck_assert_ptr_null(source_fault("Right Games, The Kingdoms of Crusaders product page "
					"(English)"));
	ck_assert_ptr_null(source_fault("Crusader Kingdoms rules (J. Peralta), 4.2"));
}
END_TEST

/* Every `source` key of the tree under n. */
static int check_sources_under(const char *file, const hg_ynode *n)
{
	int found = 0;
	if (n->kind == HG_Y_MAP) {
		for (size_t i = 0; i < hg_ymap_len(n); i++) {
			const hg_ynode *v = hg_ymap_value(n, i);
			if (strcmp(hg_ymap_key(n, i)->scalar, "source") == 0) {
				ck_assert_msg(v->kind == HG_Y_SCALAR, "%s: a source that is not text",
					      file);
				const char *fault = source_fault(v->scalar);
				ck_assert_msg(fault == NULL, "%s:%u: source \"%s\" %s", file,
					      v->pos.line, v->scalar, fault);
				found++;
			} else {
				found += check_sources_under(file, v);
			}
		}
	} else if (n->kind == HG_Y_SEQ) {
		for (size_t i = 0; i < n->n; i++)
			found += check_sources_under(file, n->items[i]);
	}
	return found;
}

START_TEST(every_source_descriptive)
{
	for (size_t f = 0; shipped[f]; f++) {
		hg_ydoc *doc = load(shipped[f]);
		ck_assert_msg(check_sources_under(shipped[f], doc->root) > 0,
			      "%s names no source", shipped[f]);
		/* and each says what kind of place it is: a published value
		 * the publisher and its page ("Publisher, ... page"), a
		 * rule-text value the rules and a section number, a
		 * reconstructed one that herald made it */
		hg_provs p;
		hg_provs_init(&p);
		hg_diags d;
		hg_diags_init(&d);
		ck_assert_int_eq(hg_provs_collect(&p, doc, &d), 0);
		for (size_t i = 0; i < p.n; i++) {
			const char *s = p.v[i].source;
			if (!s)
				continue;
			switch (p.v[i].kind) {
			case HG_PROV_PUBLISHED:
				ck_assert_msg(strstr(s, ", ") && strstr(s, " page"),
					      "%s: %s: \"%s\" names no publisher's page", shipped[f],
					      p.v[i].datum, s);
				break;
			case HG_PROV_RULE_TEXT:
				ck_assert_msg(strstr(s, " rules") && strpbrk(s, "0123456789"),
					      "%s: %s: \"%s\" names no section of the rules",
					      shipped[f], p.v[i].datum, s);
				break;
			case HG_PROV_RECONSTRUCTED:
				ck_assert_msg(strstr(s, "herald") != NULL,
					      "%s: %s: \"%s\" does not say herald made it", shipped[f],
					      p.v[i].datum, s);
				break;
			case HG_PROV_UNSTATED:
				break;
			}
		}
		hg_provs_free(&p);
		hg_diags_free(&d);
		hg_ydoc_free(doc);
	}
}
END_TEST

enum { ORO, COPA, BASTO, ESPADA, NSUITS };
static const char *const suits[] = { "oro", "copa", "basto", "espada" };
enum { MAX_CARDS = 128 };

static int int_cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* 1 when the card gives one of the special resources (Sagrait, Idolo
 * Maldito: `special: true` in the resource list). */
static int gives_special(const hg_ynode *card, const hg_ynode *resources)
{
	const hg_ynode *gives = hg_ymap_get(card, "resources");
	if (!gives)
		return 0;
	for (size_t i = 0; i < hg_ymap_len(gives); i++)
		for (size_t r = 0; r < resources->n; r++) {
			const char *special = scalar(resources->items[r], "special");
			if (special && strcmp(special, "true") == 0 &&
			    strcmp(scalar(resources->items[r], "id"), hg_ymap_key(gives, i)->scalar) == 0)
				return 1;
		}
	return 0;
}

/* The suits' roles, card by card (herald-encrucijada(7), DATA): espada
 * out-attacks every other suit on average and no espada card is weaker
 * than the civilisation's median basto; every basto card gives a
 * resource; every copa card has an effect; every oro card is special: it
 * has an effect (oro goes first and cannot be stopped, rule 2, El Palo) or
 * gives a special resource. */
START_TEST(enc_suits_roles)
{
	static const char *const civs[] = { "encrucijada/cards-aurora.yaml",
					    "encrucijada/cards-ocaso.yaml",
					    "encrucijada/cards-pacificadores.yaml" };
	hg_ydoc *res = load("encrucijada/resources.yaml");
	const hg_ynode *resources = hg_ymap_get(res->root, "resources");
	for (size_t f = 0; f < sizeof civs / sizeof *civs; f++) {
		int values[NSUITS][MAX_CARDS], n[NSUITS] = { 0 }, sum[NSUITS] = { 0 };
		hg_ydoc *doc = load(civs[f]);
		const hg_ynode *cards = hg_ymap_get(doc->root, "cards");
		for (size_t c = 0; c < cards->n; c++) {
			const hg_ynode *card = cards->items[c];
			const char *id = scalar(card, "id");
			int s = 0;
			while (s < NSUITS && strcmp(scalar(card, "suit"), suits[s]) != 0)
				s++;
			ck_assert_int_lt(s, NSUITS);
			ck_assert_int_lt(n[s], MAX_CARDS);
			int value = atoi(scalar(card, "value"));
			values[s][n[s]++] = value;
			sum[s] += value;
			const hg_ynode *gives = hg_ymap_get(card, "resources");
			int has_effect = hg_ymap_get(card, "effect") != NULL;
			if (s == BASTO)
				ck_assert_msg(gives && hg_ymap_len(gives) > 0,
					      "%s: basto card %s gives no resource", civs[f], id);
			if (s == COPA)
				ck_assert_msg(has_effect, "%s: copa card %s has no effect", civs[f], id);
			if (s == ORO)
				ck_assert_msg(has_effect || gives_special(card, resources),
					      "%s: oro card %s is not special (no effect, no special "
					      "resource)", civs[f], id);
		}
		for (int s = 0; s < NSUITS; s++)
			ck_assert_msg(n[s] > 0, "%s: no %s card", civs[f], suits[s]);
		/* compared as fractions: a/b > c/d as a*d > c*b */
		for (int s = 0; s < NSUITS; s++)
			if (s != ESPADA)
				ck_assert_msg(sum[ESPADA] * n[s] > sum[s] * n[ESPADA],
					      "%s: espada does not out-attack %s on average", civs[f],
					      suits[s]);
		/* twice the median, so that an even count needs no fraction */
		qsort(values[BASTO], (size_t)n[BASTO], sizeof **values, int_cmp);
		int median2 = values[BASTO][(n[BASTO] - 1) / 2] + values[BASTO][n[BASTO] / 2];
		for (int i = 0; i < n[ESPADA]; i++)
			ck_assert_msg(2 * values[ESPADA][i] >= median2,
				      "%s: an espada card of value %d is weaker than the median "
				      "basto (%d/2)", civs[f], values[ESPADA][i], median2);
		hg_ydoc_free(doc);
	}
	hg_ydoc_free(res);
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
	tcase_add_test(tc, source_fault_refuses);
	tcase_add_test(tc, every_source_descriptive);
	suite_add_tcase(s, tc);
	return s;
}
