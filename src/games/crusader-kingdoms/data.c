/* data.c - Crusader Kingdoms: loading and validating the game's data.
 *
 * Three kinds of YAML file (herald-crusader-kingdoms(7), DATA FILES):
 * scenarios.yaml names the map and deck files and holds the deployment
 * tables (7.1, 8.1); a map file holds the areas, their shields, their
 * borders and, on the 1- and 2-player side, their identification numbers
 * and victory points (2.4); a deck file holds one religion's cards (2.1) with their
 * effects in the effect vocabulary (effects.c).  Everything the rule text
 * does not print is marked `reconstructed` and can be replaced through the
 * record tags ScenarioFile, MapFile, MuslimDeckFile and ChristianDeckFile.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ck.h"

static const char *const religion_words[] = { "muslim", "christian", NULL };

const char *ck_religion_name(int religion)
{
	return religion_words[religion];
}

/* An id or alias must be one word of the notation (hgn.ebnf: word), not a
 * number, not a word that ends a list in the action syntax (notation-
 * words.h), so that records can name it.  The reader (notation.c) relies
 * on this: a token that names something is never one of those words. */
static int check_word(const hg_ynode *n, const char *s, size_t max, hg_diags *d)
{
	size_t len = strlen(s);
	int digits = 1, ok = len > 0 && len <= max;
	for (size_t i = 0; ok && i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c < 0x80 && !((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
				  (c >= '0' && c <= '9') || c == '_' || c == '-' ||
				  c == '\'' || c == '.' || c == '#'))
			ok = 0;
		if (c < '0' || c > '9')
			digits = 0;
	}
	if (!ok || digits) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, n->pos, "data.range",
					  "'%s' is not a name records can write", s);
		hg_diag_note(dg, "a name is one word of at most %zu bytes: letters, digits, _ - ' . # (not only digits)",
			     max);
		return -1;
	}
	if (ck_word_ends_list(s)) {
		hg_diag_add(d, HG_ERROR, n->pos, "data.range",
			    "'%s' is a reserved word of the action syntax", s);
		return -1;
	}
	return 0;
}

/* Binds a name (id or alias) to a value; a clash is a duplicate id. */
static int bind_name(hg_names *t, const hg_ynode *n, const char *name, int value,
		     const char *what, hg_diags *d)
{
	int clash;
	if (hg_names_add(t, name, value, &clash) == 0)
		return 0;
	hg_diag_add(d, HG_ERROR, n->pos, "data.duplicate-id",
		    "%s name '%s' is already taken by another %s", what, name, what);
	return -1;
}

/* id (required), name, aliases: common to areas, cards, factions. */
static int load_names(const hg_ynode *map, char **id, char **name, hg_names *t,
		      int value, const char *what, hg_diags *d)
{
	const char *s;
	const hg_ynode *n = hg_ymap_get(map, "id");
	if (hg_ystr(n, &s, d) != 0 || check_word(n, s, CK_MAX_ID, d) != 0)
		return -1;
	if (!(*id = hg_try_strdup(s)))
		return -1;	/* (the unit of work reports it) */
	int rc = bind_name(t, n, s, value, what, d);
	n = hg_ymap_get(map, "name");
	if (n && hg_ystr(n, &s, d) != 0)
		return -1;
	if (!(*name = hg_try_strdup(n ? s : *id)))
		return -1;
	n = hg_ymap_get(map, "aliases");
	if (!n)
		return rc;
	if (hg_ycheck_kind(n, HG_Y_SEQ, "aliases", d) != 0)
		return -1;
	for (size_t i = 0; i < n->n; i++) {
		const hg_ynode *a = n->items[i];
		if (hg_ystr(a, &s, d) != 0 || check_word(a, s, 64, d) != 0) {
			rc = -1;
			continue;
		}
		rc |= bind_name(t, a, s, value, what, d);
	}
	return rc;
}

static int load_bool(const hg_ynode *map, const char *key, int dflt, int *out, hg_diags *d)
{
	const hg_ynode *n = hg_ymap_get(map, key);
	*out = dflt;
	return n ? hg_ybool(n, out, d) : 0;
}

static int load_int(const hg_ynode *map, const char *key, long min, long max, int *out,
		    hg_diags *d)
{
	long v;
	if (hg_yint(hg_ymap_get(map, key), min, max, &v, d) != 0)
		return -1;
	*out = (int)v;
	return 0;
}

/* ------------------------------------------------------------------ maps */
static void map_free(ck_map *m)
{
	for (int i = 0; i < m->nareas; i++) {
		free(m->areas[i].id);
		free(m->areas[i].name);
	}
	free(m->areas);
	free(m->id);
	free(m->name);
	free(m->file);
	hg_names_free(m->names);
	hg_ck_spellings_free(&m->spell);
	memset(m, 0, sizeof *m);
}

static const char *const area_keys[] = {
	"!id", "name", "aliases", "!defence", "!adjacent", "number", "points",
	"reconstructed", NULL
};

/* Borders are listed on both sides (2.4): the loader rejects a border
 * named once, an unknown area and an area bordering itself. */
static int check_borders(ck_map *m, const hg_ynode *list, hg_diags *d)
{
	int rc = 0;
	for (int i = 0; i < m->nareas; i++) {
		const hg_ynode *adj = hg_ymap_get(list->items[i], "adjacent");
		for (size_t k = 0; k < adj->n; k++) {
			const hg_ynode *n = adj->items[k];
			int j = hg_names_find(m->names, n->scalar);
			if (j < 0) {
				hg_diag *dg = hg_diag_add(d, HG_ERROR, n->pos, "data.reference",
							  "area '%s' borders '%s', which is not an area of map '%s'",
							  m->areas[i].id, n->scalar, m->id);
				int sug;
				if (hg_names_suggest(m->names, n->scalar, &sug, 1) == 1)
					hg_diag_note(dg, "did you mean '%s'?", m->areas[sug].id);
				rc = -1;
			} else if (j == i) {
				hg_diag_add(d, HG_ERROR, n->pos, "data.reference",
					    "area '%s' cannot border itself", m->areas[i].id);
				rc = -1;
			} else if (m->areas[i].adj & ((uint64_t)1 << j)) {
				hg_diag_add(d, HG_ERROR, n->pos, "data.duplicate-id",
					    "area '%s' lists the border with '%s' twice",
					    m->areas[i].id, m->areas[j].id);
				rc = -1;
			} else {
				m->areas[i].adj |= (uint64_t)1 << j;
			}
		}
	}
	for (int i = 0; rc == 0 && i < m->nareas; i++) {
		const hg_ynode *adj = hg_ymap_get(list->items[i], "adjacent");
		for (size_t k = 0; k < adj->n; k++) {
			int j = hg_names_find(m->names, adj->items[k]->scalar);
			if (m->areas[j].adj & ((uint64_t)1 << i))
				continue;
			hg_diag *dg = hg_diag_add(d, HG_ERROR, adj->items[k]->pos, "data.reference",
						  "area '%s' borders '%s', but '%s' does not border '%s'",
						  m->areas[i].id, m->areas[j].id, m->areas[j].id,
						  m->areas[i].id);
			hg_diag_note(dg, "borders are symmetric: list '%s' in the adjacent areas of '%s'",
				     m->areas[i].id, m->areas[j].id);
			rc = -1;
		}
	}
	return rc;
}

/* Identification numbers, where a map prints them (2.4), are 1..n, each
 * once, on every area or on none. */
static int check_numbers(ck_map *m, const hg_ynode *list, hg_diags *d)
{
	int with = 0;
	for (int i = 0; i < m->nareas; i++)
		with += m->areas[i].number > 0;
	if (with == 0)
		return 0;
	int rc = 0;
	uint64_t seen = 0;
	for (int i = 0; i < m->nareas; i++) {
		const hg_ynode *n = hg_ymap_get(list->items[i], "number");
		if (!n) {
			hg_diag_add(d, HG_ERROR, list->items[i]->pos, "data.missing-key",
				    "area '%s' has no 'number', but other areas of map '%s' have one",
				    m->areas[i].id, m->id);
			rc = -1;
		} else if (m->areas[i].number > m->nareas) {
			hg_diag_add(d, HG_ERROR, n->pos, "data.range",
				    "area number %d is above the map's %d areas",
				    m->areas[i].number, m->nareas);
			rc = -1;
		} else if (seen & ((uint64_t)1 << (m->areas[i].number - 1))) {
			hg_diag_add(d, HG_ERROR, n->pos, "data.duplicate-id",
				    "area number %d is given twice", m->areas[i].number);
			rc = -1;
		} else {
			seen |= (uint64_t)1 << (m->areas[i].number - 1);
		}
	}
	return rc;
}

static const char *const map_file_keys[] = { "!id", "name", "reconstructed", "!areas", NULL };

static int load_map(ck_map *m, const hg_ydoc *doc, hg_diags *d)
{
	const hg_ynode *root = doc->root;
	m->names = hg_names_new();
	m->file = hg_try_strdup(doc->file);
	if (!m->names || !m->file)
		return -1;	/* (the unit of work reports it) */
	if (!root) {
		hg_pos pos = { doc->file, 1, 1 };
		hg_diag_add(d, HG_ERROR, pos, "data.missing-key", "the map file is empty");
		return -1;
	}
	if (hg_ycheck_keys(root, map_file_keys, "a map", d) != 0)
		return -1;
	const char *s;
	const hg_ynode *n = hg_ymap_get(root, "id");
	if (hg_ystr(n, &s, d) != 0 || check_word(n, s, CK_MAX_ID, d) != 0)
		return -1;
	if (!(m->id = hg_try_strdup(s)))
		return -1;
	n = hg_ymap_get(root, "name");
	if (n && hg_ystr(n, &s, d) != 0)
		return -1;
	if (!(m->name = hg_try_strdup(n ? s : m->id)))
		return -1;
	if (load_bool(root, "reconstructed", 0, &m->reconstructed, d) != 0)
		return -1;
	const hg_ynode *list = hg_ymap_get(root, "areas");
	if (hg_ycheck_kind(list, HG_Y_SEQ, "areas", d) != 0)
		return -1;
	if (list->n == 0 || list->n > CK_MAX_AREAS) {
		hg_diag_add(d, HG_ERROR, list->pos, "data.range",
			    "a map has 1 to %d areas, not %zu", CK_MAX_AREAS, list->n);
		return -1;
	}
	if (!(m->areas = hg_try_calloc(list->n, sizeof *m->areas)))
		return -1;
	int rc = 0;
	for (size_t i = 0; i < list->n; i++) {
		const hg_ynode *a = list->items[i];
		ck_area *ar = &m->areas[m->nareas];
		if (a->kind == HG_Y_MAP && !hg_ymap_get(a, "number") && hg_ymap_get(a, "points")) {
			hg_diag_add(d, HG_ERROR, hg_ymap_get(a, "points")->pos, "data.missing-key",
				    "victory points go with an identification number (2.4)");
			rc = -1;
			continue;
		}
		if (hg_ycheck_keys(a, area_keys, "an area", d) != 0) {
			rc = -1;
			continue;
		}
		m->nareas++;
		if (load_names(a, &ar->id, &ar->name, m->names, (int)i, "area", d) != 0 ||
		    load_int(a, "defence", 1, 9, &ar->defence, d) != 0 ||
		    load_bool(a, "reconstructed", 0, &ar->reconstructed, d) != 0 ||
		    hg_ycheck_kind(hg_ymap_get(a, "adjacent"), HG_Y_SEQ, "adjacent", d) != 0) {
			rc = -1;
			continue;
		}
		const hg_ynode *adj = hg_ymap_get(a, "adjacent");
		for (size_t k = 0; k < adj->n; k++)
			if (hg_ystr(adj->items[k], &s, d) != 0)
				rc = -1;
		if (hg_ymap_get(a, "number") &&
		    load_int(a, "number", 1, CK_MAX_AREAS, &ar->number, d) != 0)
			rc = -1;
		if (hg_ymap_get(a, "points") && load_int(a, "points", 0, 99, &ar->points, d) != 0)
			rc = -1;
	}
	if (rc != 0)
		return -1;
	if (check_borders(m, list, d) != 0 || check_numbers(m, list, d) != 0)
		return -1;
	return 0;
}

/* ----------------------------------------------------------------- decks */
static void deck_free(ck_deck *k)
{
	for (int i = 0; i < k->ncards; i++) {
		free(k->cards[i].id);
		free(k->cards[i].name);
		free(k->cards[i].text);
	}
	free(k->cards);
	free(k->id);
	free(k->name);
	free(k->file);
	hg_names_free(k->names);
	memset(k, 0, sizeof *k);
}

static const char *const card_keys[] = {
	"!id", "name", "aliases", "!type", "strength", "!copies", "persistent", "sides",
	"script", "text", "effects", "reconstructed", NULL
};

/* A key present where the card's type has no use for it. */
static int forbid(const hg_ynode *card, const char *key, const char *why, hg_diags *d)
{
	const hg_ynode *n = hg_ymap_get(card, key);
	if (!n)
		return 0;
	hg_diag_add(d, HG_ERROR, n->pos, "data.unknown-key", "'%s' %s", key, why);
	return -1;
}

static int load_sides(ck_card *c, const hg_ynode *n, hg_diags *d)
{
	static const char *const words[] = { "attack", "defence", NULL };
	if (hg_ycheck_kind(n, HG_Y_SEQ, "sides", d) != 0)
		return -1;
	if (n->n == 0) {
		hg_diag_add(d, HG_ERROR, n->pos, "data.range",
			    "a response supports the attack, the defence or both");
		return -1;
	}
	for (size_t i = 0; i < n->n; i++) {
		int w;
		if (hg_yword(n->items[i], words, &w, d) != 0)
			return -1;
		c->sides |= w == 0 ? CK_SIDE_ATTACK : CK_SIDE_DEFENCE;
	}
	return 0;
}

static int load_card(ck_deck *k, const hg_ynode *cn, int index, hg_diags *d)
{
	static const char *const types[] = { "troop", "event", "response", NULL };
	ck_card *c = &k->cards[index];
	if (hg_ycheck_keys(cn, card_keys, "a card", d) != 0)
		return -1;
	if (load_names(cn, &c->id, &c->name, k->names, index, "card", d) != 0)
		return -1;
	int type;
	if (hg_yword(hg_ymap_get(cn, "type"), types, &type, d) != 0 ||
	    load_int(cn, "copies", 1, CK_MAX_COPIES, &c->copies, d) != 0 ||
	    load_bool(cn, "reconstructed", 0, &c->reconstructed, d) != 0 ||
	    load_bool(cn, "persistent", 0, &c->persistent, d) != 0)
		return -1;
	c->type = (ck_card_type)type;
	const hg_ynode *n = hg_ymap_get(cn, "text");
	const char *s;
	if (n) {
		if (hg_ystr(n, &s, d) != 0)
			return -1;
		if (!(c->text = hg_try_strdup(s)))
			return -1;	/* (the unit of work reports it) */
	}
	int rc = 0;
	if (c->type == CK_TROOP) {
		if (!hg_ymap_get(cn, "strength")) {
			hg_diag_add(d, HG_ERROR, cn->pos, "data.missing-key",
				    "troop card '%s' has no 'strength'", c->id);
			return -1;
		}
		rc |= load_int(cn, "strength", 1, 9, &c->strength, d);
		rc |= forbid(cn, "effects", "is not for troops: a troop's effect is its strength", d);
		rc |= forbid(cn, "sides", "is only for responses", d);
		rc |= forbid(cn, "script", "is only for responses", d);
		rc |= forbid(cn, "persistent", "is only for events", d);
		return rc;
	}
	rc |= forbid(cn, "strength", "is only for troops", d);
	if (c->type == CK_EVENT) {
		rc |= forbid(cn, "sides", "is only for responses", d);
		rc |= forbid(cn, "script", "is only for responses", d);
	} else {
		rc |= forbid(cn, "persistent", "is only for events", d);
	}
	if (c->type == CK_RESPONSE && hg_ymap_get(cn, "script")) {
		/* 8.3, 8.4: where a side no player controls puts the response */
		static const char *const places[] = {
			"response", "army-or-response", "army-or-discard", NULL
		};
		int w;
		if (hg_yword(hg_ymap_get(cn, "script"), places, &w, d) != 0)
			return -1;
		c->script = (ck_script_place)w;
	}
	if (c->type == CK_RESPONSE) {
		n = hg_ymap_get(cn, "sides");
		if (!n) {
			hg_diag_add(d, HG_ERROR, cn->pos, "data.missing-key",
				    "response card '%s' has no 'sides'", c->id);
			return -1;
		}
		rc |= load_sides(c, n, d);
	}
	n = hg_ymap_get(cn, "effects");
	if (!n) {
		hg_diag_add(d, HG_ERROR, cn->pos, "data.missing-key",
			    "card '%s' has no 'effects'", c->id);
		return -1;
	}
	if (rc != 0)
		return -1;
	return ck_effects_load(c, n, d);
}

static const char *const deck_file_keys[] = {
	"!id", "name", "!religion", "reconstructed", "!cards", NULL
};

static int load_deck(ck_deck *k, const hg_ydoc *doc, hg_diags *d)
{
	const hg_ynode *root = doc->root;
	k->names = hg_names_new();
	k->file = hg_try_strdup(doc->file);
	if (!k->names || !k->file)
		return -1;	/* (the unit of work reports it) */
	if (!root) {
		hg_pos pos = { doc->file, 1, 1 };
		hg_diag_add(d, HG_ERROR, pos, "data.missing-key", "the deck file is empty");
		return -1;
	}
	if (hg_ycheck_keys(root, deck_file_keys, "a deck", d) != 0)
		return -1;
	const char *s;
	const hg_ynode *n = hg_ymap_get(root, "id");
	if (hg_ystr(n, &s, d) != 0 || check_word(n, s, CK_MAX_ID, d) != 0)
		return -1;
	if (!(k->id = hg_try_strdup(s)))
		return -1;
	n = hg_ymap_get(root, "name");
	if (n && hg_ystr(n, &s, d) != 0)
		return -1;
	if (!(k->name = hg_try_strdup(n ? s : k->id)))
		return -1;
	if (hg_yword(hg_ymap_get(root, "religion"), religion_words, &k->religion, d) != 0 ||
	    load_bool(root, "reconstructed", 0, &k->reconstructed, d) != 0)
		return -1;
	const hg_ynode *list = hg_ymap_get(root, "cards");
	if (hg_ycheck_kind(list, HG_Y_SEQ, "cards", d) != 0)
		return -1;
	if (list->n == 0 || list->n > CK_MAX_CARDS) {
		hg_diag_add(d, HG_ERROR, list->pos, "data.range",
			    "a deck has 1 to %d different cards, not %zu", CK_MAX_CARDS, list->n);
		return -1;
	}
	if (!(k->cards = hg_try_calloc(list->n, sizeof *k->cards)))
		return -1;
	int rc = 0;
	for (size_t i = 0; i < list->n; i++) {
		k->ncards++;
		if (load_card(k, list->items[i], (int)i, d) != 0)
			rc = -1;
		else
			k->total += k->cards[i].copies;
	}
	if (rc == 0 && k->total > CK_MAX_DECK) {
		hg_diag_add(d, HG_ERROR, list->pos, "data.range",
			    "deck '%s' holds %d cards; at most %d are allowed", k->id, k->total,
			    CK_MAX_DECK);
		rc = -1;
	}
	return rc;
}

/* ------------------------------------------------------------- scenarios */
static void scenario_free(ck_scenario *sc)
{
	for (int i = 0; i < sc->nfactions; i++) {
		free(sc->factions[i].id);
		free(sc->factions[i].name);
		free(sc->factions[i].colour);
	}
	free(sc->factions);
	for (int i = 0; i < sc->nlevels; i++)
		free(sc->levels[i].name);
	free(sc->id);
	free(sc->name);
	hg_names_free(sc->seats);
	hg_ck_spellings_free(&sc->spell);
	memset(sc, 0, sizeof *sc);
}

static const char *const faction_keys[] = {
	"!id", "name", "aliases", "!religion", "colour", "!castles", "!deploy", "!cards",
	"player", "reconstructed", NULL
};

/* deploy: a list of areas, or `rest`: every area no other faction deploys
 * in (the Muslims of 8.1). */
static int load_deploy(ck_faction *f, const hg_ynode *n, const ck_map *m, int *rest,
		       hg_diags *d)
{
	if (n->kind == HG_Y_SCALAR && strcmp(n->scalar, "rest") == 0) {
		*rest = 1;
		return 0;
	}
	if (hg_ycheck_kind(n, HG_Y_SEQ, "deploy", d) != 0)
		return -1;
	for (size_t i = 0; i < n->n; i++) {
		const char *s;
		if (hg_ystr(n->items[i], &s, d) != 0)
			return -1;
		int a = hg_names_find(m->names, s);
		if (a < 0) {
			hg_diag_add(d, HG_ERROR, n->items[i]->pos, "data.reference",
				    "'%s' is not an area of map '%s'", s, m->id);
			return -1;
		}
		f->deploy |= (uint64_t)1 << a;
	}
	return 0;
}

static int load_faction(ck_scenario *sc, const hg_ynode *fn, int index, const ck_map *m,
			int *rest, hg_diags *d)
{
	ck_faction *f = &sc->factions[index];
	if (hg_ycheck_keys(fn, faction_keys, "a faction", d) != 0)
		return -1;
	if (load_names(fn, &f->id, &f->name, sc->seats, index, "faction",
		       d) != 0)
		return -1;
	if (hg_yword(hg_ymap_get(fn, "religion"), religion_words, &f->religion, d) != 0 ||
	    load_int(fn, "castles", 1, CK_MAX_AREAS, &f->castles, d) != 0 ||
	    load_int(fn, "cards", 0, CK_MAX_DECK, &f->cards, d) != 0 ||
	    load_bool(fn, "player", 1, &f->player, d) != 0 ||
	    load_bool(fn, "reconstructed", 0, &f->reconstructed, d) != 0)
		return -1;
	const hg_ynode *n = hg_ymap_get(fn, "colour");
	const char *s = "";
	if (n && hg_ystr(n, &s, d) != 0)
		return -1;
	if (!(f->colour = hg_try_strdup(s)))
		return -1;	/* (the unit of work reports it) */
	return load_deploy(f, hg_ymap_get(fn, "deploy"), m, rest, d);
}

/* The deployment areas: each area to one faction at most (7.1). */
static int check_deployment(ck_scenario *sc, const hg_ynode *list, const ck_map *m,
			    int rest, hg_diags *d)
{
	uint64_t taken = 0;
	for (int i = 0; i < sc->nfactions; i++) {
		uint64_t both = taken & sc->factions[i].deploy;
		if (both) {
			int a = __builtin_ctzll(both);
			hg_diag_add(d, HG_ERROR, hg_ymap_get(list->items[i], "deploy")->pos,
				    "data.reference",
				    "faction '%s' deploys in '%s', which another faction of scenario '%s' deploys in",
				    sc->factions[i].id, m->areas[a].id, sc->id);
			return -1;
		}
		taken |= sc->factions[i].deploy;
		if (rest == i)
			continue;
		if (__builtin_popcountll(sc->factions[i].deploy) > sc->factions[i].castles) {
			hg_diag_add(d, HG_ERROR, list->items[i]->pos, "data.range",
				    "faction '%s' deploys in more areas than it has castle tokens",
				    sc->factions[i].id);
			return -1;
		}
	}
	if (rest >= 0) {
		uint64_t all = m->nareas == 64 ? ~(uint64_t)0 : (((uint64_t)1 << m->nareas) - 1);
		sc->factions[rest].deploy = all & ~taken;
	}
	return 0;
}

static int load_order(ck_scenario *sc, const hg_ynode *n, hg_diags *d)
{
	if (!n) {
		sc->norder = 0;
		for (int i = 0; i < sc->nfactions; i++)
			sc->order[sc->norder++] = i;
		return 0;
	}
	if (hg_ycheck_kind(n, HG_Y_SEQ, "order", d) != 0)
		return -1;
	if (n->n == 0 || n->n > CK_MAX_ORDER) {
		hg_diag_add(d, HG_ERROR, n->pos, "data.range",
			    "a round order has 1 to %d entries", CK_MAX_ORDER);
		return -1;
	}
	uint64_t seen = 0;
	for (size_t i = 0; i < n->n; i++) {
		const char *s;
		if (hg_ystr(n->items[i], &s, d) != 0)
			return -1;
		int f = hg_names_find(sc->seats, s);
		if (f < 0) {
			hg_diag_add(d, HG_ERROR, n->items[i]->pos, "data.reference",
				    "'%s' is not a faction of scenario '%s'", s, sc->id);
			return -1;
		}
		sc->order[sc->norder++] = f;
		seen |= (uint64_t)1 << f;
	}
	for (int i = 0; i < sc->nfactions; i++)
		if (!(seen & ((uint64_t)1 << i))) {
			hg_diag_add(d, HG_ERROR, n->pos, "data.reference",
				    "faction '%s' has no round in the order of scenario '%s'",
				    sc->factions[i].id, sc->id);
			return -1;
		}
	return 0;
}

static int load_removed(ck_scenario *sc, const hg_ynode *n, const hg_gdata *g, hg_diags *d)
{
	if (!n)
		return 0;
	if (hg_ycheck_keys(n, (const char *const[]){ "muslim", "christian", NULL },
			   "removed", d) != 0)
		return -1;
	for (int r = 0; r < CK_NRELIGIONS; r++) {
		const hg_ynode *list = hg_ymap_get(n, religion_words[r]);
		if (!list)
			continue;
		if (hg_ycheck_kind(list, HG_Y_SEQ, "removed", d) != 0)
			return -1;
		for (size_t i = 0; i < list->n; i++) {
			const char *s;
			if (hg_ystr(list->items[i], &s, d) != 0)
				return -1;
			int c = hg_names_find(g->decks[r].names, s);
			if (c < 0) {
				hg_diag_add(d, HG_ERROR, list->items[i]->pos, "data.reference",
					    "'%s' is not a card of the %s deck", s, religion_words[r]);
				return -1;
			}
			if (sc->removed[r][c] >= g->decks[r].cards[c].copies) {
				hg_diag_add(d, HG_ERROR, list->items[i]->pos, "data.range",
					    "the %s deck has no more copies of '%s' to remove",
					    religion_words[r], g->decks[r].cards[c].id);
				return -1;
			}
			sc->removed[r][c]++;
		}
	}
	return 0;
}

static const char *const scenario_keys[] = {
	"!id", "name", "aliases", "titles", "!players", "!map", "!turns", "!factions", "order",
	"no-attack-between", "allies", "bonus-from-conquest", "final-pass", "victory-points",
	"removed", "script-turns-castles", "script-leader-rule", NULL
};

/* A list of religions (no-attack-between, allies). */
static int load_religions(const hg_ynode *n, const char *key, int *out, hg_diags *d)
{
	if (!n)
		return 0;
	if (hg_ycheck_kind(n, HG_Y_SEQ, key, d) != 0)
		return -1;
	for (size_t i = 0; i < n->n; i++) {
		int r;
		if (hg_yword(n->items[i], religion_words, &r, d) != 0)
			return -1;
		out[r] = 1;
	}
	return 0;
}

/* victory-points (8.5): the levels from the highest, each reached `from`
 * points up; the last, with no `from`, takes every lower score. */
static int load_levels(ck_scenario *sc, const hg_ynode *n, hg_diags *d)
{
	static const char *const keys[] = { "!level", "from", NULL };
	if (!n)
		return 0;
	if (hg_ycheck_kind(n, HG_Y_SEQ, "victory-points", d) != 0)
		return -1;
	if (n->n == 0 || n->n > CK_MAX_LEVELS) {
		hg_diag_add(d, HG_ERROR, n->pos, "data.range",
			    "victory-points lists 1 to %d levels", CK_MAX_LEVELS);
		return -1;
	}
	for (size_t i = 0; i < n->n; i++) {
		const hg_ynode *l = n->items[i];
		const char *name;
		if (hg_ycheck_keys(l, keys, "a victory level", d) != 0 ||
		    hg_ystr(hg_ymap_get(l, "level"), &name, d) != 0)
			return -1;
		if (strlen(name) == 0 || strlen(name) > 64) {
			hg_diag_add(d, HG_ERROR, hg_ymap_get(l, "level")->pos, "data.range",
				    "a victory level's name has 1 to 64 bytes");
			return -1;
		}
		ck_level *lv = &sc->levels[sc->nlevels++];
		if (!(lv->name = hg_try_strdup(name)))
			return -1;	/* (the unit of work reports it) */
		const hg_ynode *from = hg_ymap_get(l, "from");
		int last = i + 1 == n->n;
		if (last && from) {
			hg_diag_add(d, HG_ERROR, from->pos, "data.unknown-key",
				    "the last victory level, '%s', takes every lower score: it has no 'from'",
				    name);
			return -1;
		}
		if (!last && !from) {
			hg_diag_add(d, HG_ERROR, l->pos, "data.missing-key",
				    "victory level '%s' needs 'from', the fewest points that reach it", name);
			return -1;
		}
		if (from && load_int(l, "from", -999, 999, &lv->from, d) != 0)
			return -1;
		if (from && i > 0 && lv->from >= sc->levels[i - 1].from) {
			hg_diag_add(d, HG_ERROR, from->pos, "data.range",
				    "victory levels go from the highest down: %d is not below %d",
				    lv->from, sc->levels[i - 1].from);
			return -1;
		}
	}
	return 0;
}

/* Section 8: a side no player controls is played by the script of 8.3,
 * which needs the map's identification numbers (to choose the area its
 * army attacks) and can play only some events; its round is played against
 * the player whose round precedes it in the order (8.2). */
static int check_scripted(hg_gdata *g, ck_scenario *sc, const hg_ynode *sn, hg_diags *d)
{
	/* the sides by kind, for the end of a turn (turn.c), asked after
	 * every round */
	sc->players_mask = sc->scripted_mask = 0;
	for (int f = 0; f < sc->nfactions; f++) {
		if (sc->factions[f].player)
			sc->players_mask |= 1u << f;
		else
			sc->scripted_mask |= 1u << f;
	}
	for (int i = 0; i < sc->norder; i++) {
		sc->against[i] = -1;
		if (sc->factions[sc->order[i]].player)
			continue;
		for (int k = 1; k <= sc->norder; k++) {
			int j = (i - k + sc->norder) % sc->norder;
			if (sc->factions[sc->order[j]].player) {
				sc->against[i] = sc->order[j];
				break;
			}
		}
	}
	for (int f = 0; f < sc->nfactions; f++) {
		if (sc->factions[f].player)
			continue;
		sc->scripted = 1;
		if (sc->bonus_from_conquest) {
			hg_diag_add(d, HG_ERROR, hg_ymap_get(sn, "id")->pos, "data.range",
				    "scenario '%s' has a side no player controls (%s): only events move the card bonus there (rule 8.2); set 'bonus-from-conquest: false'",
				    sc->id, sc->factions[f].id);
			return -1;
		}
		const ck_map *m = &g->maps[sc->map];
		if (m->areas[0].number == 0) {
			hg_diag *dg = hg_diag_add(d, HG_ERROR, hg_ymap_get(sn, "map")->pos,
						  "data.reference",
						  "scenario '%s' has a side no player controls (%s), whose script needs the areas' identification numbers, and map '%s' has none (rule 8.3)",
						  sc->id, sc->factions[f].id, m->id);
			hg_diag_note(dg, "give every area of the map a 'number', 1 to %d, each once (2.4)",
				     m->nareas);
			return -1;
		}
		int r = sc->factions[f].religion;
		const ck_deck *k = &g->decks[r];
		for (int c = 0; c < k->ncards; c++) {
			const char *why = NULL;
			if (sc->removed[r][c] >= k->cards[c].copies ||
			    k->cards[c].type != CK_EVENT || ck_event_scriptable(&k->cards[c], &why))
				continue;
			hg_diag *dg = hg_diag_add(d, HG_ERROR, hg_ymap_get(sn, "id")->pos, "data.range",
						  "in scenario '%s' the script of rule 8.3 plays %s's cards, and it cannot play '%s': %s",
						  sc->id, sc->factions[f].id, k->cards[c].id, why);
			hg_diag_note(dg, "take the card out of the deck with 'removed' (rule 8.1)");
			return -1;
		}
	}
	return 0;
}

/* A scenario's name and titles, as printed on the box and in the rules
 * ("La era de Saladino", "2ª Cruzada"), name it in the Scenario tag too.
 * They are tag values, not words of the action syntax: spaces allowed. */
static int load_titles(const hg_ynode *sn, const ck_scenario *sc, hg_names *t, int value,
		       hg_diags *d)
{
	const hg_ynode *n = hg_ymap_get(sn, "name");
	int rc = n ? bind_name(t, n, sc->name, value, "scenario", d) : 0;
	n = hg_ymap_get(sn, "titles");
	if (!n)
		return rc;
	if (hg_ycheck_kind(n, HG_Y_SEQ, "titles", d) != 0)
		return -1;
	for (size_t i = 0; i < n->n; i++) {
		const char *s;
		if (hg_ystr(n->items[i], &s, d) != 0) {
			rc = -1;
			continue;
		}
		rc |= bind_name(t, n->items[i], s, value, "scenario", d);
	}
	return rc;
}

static int load_scenario(hg_gdata *g, const hg_ynode *sn, int index, hg_diags *d)
{
	ck_scenario *sc = &g->scenarios[index];
	if (!(sc->seats = hg_names_new()))
		return -1;	/* (the unit of work reports it) */
	if (hg_ycheck_keys(sn, scenario_keys, "a scenario", d) != 0)
		return -1;
	if (load_names(sn, &sc->id, &sc->name, g->scenario_names, index, "scenario",
		       d) != 0 ||
	    load_titles(sn, sc, g->scenario_names, index, d) != 0)
		return -1;
	if (load_int(sn, "players", 1, CK_MAX_SIDES, &sc->players, d) != 0 ||
	    load_int(sn, "turns", 1, CK_MAX_TURNS, &sc->turns, d) != 0 ||
	    load_bool(sn, "bonus-from-conquest", 1, &sc->bonus_from_conquest, d) != 0 ||
	    load_bool(sn, "final-pass", 0, &sc->final_pass, d) != 0 ||
	    load_bool(sn, "script-turns-castles", 0, &sc->script_turns_castles, d) != 0 ||
	    load_bool(sn, "script-leader-rule", 1, &sc->script_leader_rule, d) != 0 ||
	    load_levels(sc, hg_ymap_get(sn, "victory-points"), d) != 0)
		return -1;
	const char *s;
	const hg_ynode *n = hg_ymap_get(sn, "map");
	if (hg_ystr(n, &s, d) != 0)
		return -1;
	sc->map = -1;
	for (int i = 0; i < g->nmaps; i++)
		if (hg_name_eq(g->maps[i].id, s))
			sc->map = i;
	if (sc->map < 0) {
		hg_diag_add(d, HG_ERROR, n->pos, "data.reference",
			    "scenario '%s' uses map '%s', which no map file defines", sc->id, s);
		return -1;
	}
	const ck_map *m = &g->maps[sc->map];
	const hg_ynode *list = hg_ymap_get(sn, "factions");
	if (hg_ycheck_kind(list, HG_Y_SEQ, "factions", d) != 0)
		return -1;
	if (list->n == 0 || list->n > CK_MAX_SIDES) {
		hg_diag_add(d, HG_ERROR, list->pos, "data.range",
			    "a scenario has 1 to %d factions", CK_MAX_SIDES);
		return -1;
	}
	if (!(sc->factions = hg_try_calloc(list->n, sizeof *sc->factions)))
		return -1;
	int rest = -1, players = 0;
	for (size_t i = 0; i < list->n; i++) {
		int r = 0;
		sc->nfactions++;
		if (load_faction(sc, list->items[i], (int)i, m, &r, d) != 0)
			return -1;
		if (r) {
			if (rest >= 0) {
				hg_diag_add(d, HG_ERROR, list->items[i]->pos, "data.reference",
					    "only one faction may deploy in the 'rest' of the map");
				return -1;
			}
			rest = (int)i;
		}
		players += sc->factions[i].player;
	}
	if (players != sc->players) {
		hg_diag_add(d, HG_ERROR, hg_ymap_get(sn, "players")->pos, "data.range",
			    "scenario '%s' declares %d players but has %d player factions",
			    sc->id, sc->players, players);
		return -1;
	}
	for (int i = 0; i < sc->nfactions; i++) {
		char pname[16];
		snprintf(pname, sizeof pname, "P%d", i + 1);
		if (bind_name(sc->seats, list->items[i], pname, i, "faction", d) != 0)
			return -1;
	}
	if (check_deployment(sc, list, m, rest, d) != 0 ||
	    load_order(sc, hg_ymap_get(sn, "order"), d) != 0 ||
	    load_removed(sc, hg_ymap_get(sn, "removed"), g, d) != 0 ||
	    load_religions(hg_ymap_get(sn, "no-attack-between"), "no-attack-between",
			   sc->no_attack_between, d) != 0 ||
	    load_religions(hg_ymap_get(sn, "allies"), "allies", sc->allies, d) != 0)
		return -1;
	return check_scripted(g, sc, sn, d);
}

static int load_scenarios(hg_gdata *g, const hg_ynode *list, hg_diags *d)
{
	if (hg_ycheck_kind(list, HG_Y_SEQ, "scenarios", d) != 0)
		return -1;
	if (list->n == 0 || list->n > 64) {
		hg_diag_add(d, HG_ERROR, list->pos, "data.range", "1 to 64 scenarios, please");
		return -1;
	}
	g->scenario_names = hg_names_new();
	g->scenarios = hg_try_calloc(list->n, sizeof *g->scenarios);
	if (!g->scenario_names || !g->scenarios)
		return -1;	/* (the unit of work reports it) */
	for (size_t i = 0; i < list->n; i++) {
		g->nscenarios++;
		if (load_scenario(g, list->items[i], (int)i, d) != 0)
			return -1;
	}
	return 0;
}

/* ------------------------------------------------------------- the whole */
void hg_ck_unload(hg_gdata *g)
{
	if (!g)
		return;
	for (int i = 0; i < g->nmaps; i++)
		map_free(&g->maps[i]);
	free(g->maps);
	for (int r = 0; r < CK_NRELIGIONS; r++)
		deck_free(&g->decks[r]);
	for (int i = 0; i < g->nscenarios; i++)
		scenario_free(&g->scenarios[i]);
	free(g->scenarios);
	hg_names_free(g->scenario_names);
	hg_ck_spellings_free(&g->card_spell);
	hg_provs_free(&g->provs);
	free(g);
}

/* A data file to read: a path the user gave or found along the data path
 * (named_by NULL), or a name a record wrote, directly or in a scenarios
 * file it named, read under the rules for such names (hg_data_load). */
typedef struct file_ref {
	const char *name;
	const char *named_by;
	hg_pos pos;
	const char *base_dir;	/* NULL: the record's directory */
} file_ref;

static hg_ydoc *load_ref(const hg_load_ctx *ctx, const file_ref *f, const char *what,
			 const char *const *keys, hg_diags *d)
{
	if (!f->named_by)
		return hg_yaml_load_file(f->name, d);
	hg_data_name n = { f->name, f->named_by, f->pos, f->base_dir, NULL };
	hg_data_kind kind = { what, keys };
	return hg_data_load(ctx, &n, &kind, d);
}

/* A path relative to the directory of `base` (a file), unless absolute;
 * NULL when there is no memory for it (the unit of work reports it). */
static char *relative_to(const char *base, const char *name)
{
	if (name[0] == '/' || !base)
		return hg_try_strdup(name);
	const char *slash = strrchr(base, '/');
	if (!slash)
		return hg_try_strdup(name);
	hg_buf b;
	hg_buf_init(&b);
	hg_buf_putn(&b, base, (size_t)(slash - base) + 1);
	hg_buf_puts(&b, name);
	if (hg_buf_failed(&b)) {
		hg_buf_free(&b);
		return NULL;
	}
	return hg_buf_steal(&b);
}

/* The directory of `file`, for the names a file gives relative to itself
 * (NULL: no memory). */
static char *dir_of(const char *file)
{
	const char *slash = strrchr(file, '/');
	if (!slash)
		return hg_try_strdup(".");
	if (slash == file)
		return hg_try_strdup("/");
	return hg_try_strndup(file, (size_t)(slash - file));
}

static int add_map(hg_gdata *g, const hg_load_ctx *ctx, const file_ref *f, hg_diags *d)
{
	hg_ydoc *doc = load_ref(ctx, f, N_("a map file"), map_file_keys, d);
	if (!doc)
		return -1;
	if (hg_provs_collect(&g->provs, doc, d) != 0) {
		hg_ydoc_free(doc);
		return -1;
	}
	ck_map m;
	memset(&m, 0, sizeof m);
	int rc = load_map(&m, doc, d);
	hg_ydoc_free(doc);
	if (rc != 0) {
		map_free(&m);
		return -1;
	}
	/* A map file named by the record replaces the map of the same id. */
	for (int i = 0; i < g->nmaps; i++)
		if (strcmp(g->maps[i].id, m.id) == 0) {
			map_free(&g->maps[i]);
			g->maps[i] = m;
			return 0;
		}
	ck_map *maps = hg_try_realloc(g->maps, (size_t)(g->nmaps + 1) * sizeof *g->maps);
	if (!maps) {
		map_free(&m);
		return -1;	/* (the unit of work reports it) */
	}
	g->maps = maps;
	g->maps[g->nmaps++] = m;
	return 0;
}

static int add_deck(hg_gdata *g, const hg_load_ctx *ctx, const file_ref *f, int want,
		    hg_diags *d)
{
	hg_ydoc *doc = load_ref(ctx, f, N_("a deck file"), deck_file_keys, d);
	if (!doc)
		return -1;
	if (hg_provs_collect(&g->provs, doc, d) != 0) {
		hg_ydoc_free(doc);
		return -1;
	}
	ck_deck k;
	memset(&k, 0, sizeof k);
	int rc = load_deck(&k, doc, d);
	if (rc == 0 && want >= 0 && k.religion != want) {
		hg_pos pos = { doc->file, 1, 1 };
		const hg_ynode *n = hg_ymap_get(doc->root, "religion");
		hg_diag_add(d, HG_ERROR, n ? n->pos : pos, "data.reference",
			    "this is the %s deck; the tag asks for the %s deck",
			    religion_words[k.religion], religion_words[want]);
		rc = -1;
	}
	hg_ydoc_free(doc);
	if (rc != 0) {
		deck_free(&k);
		return -1;
	}
	deck_free(&g->decks[k.religion]);
	g->decks[k.religion] = k;
	return 0;
}

static const char *const scenarios_file_keys[] = { "maps", "decks", "!scenarios", NULL };

/* The maps and decks a scenarios file lists, relative to itself: read as
 * the scenarios file was (a file a record names names its own files under
 * the same rules). */
static int add_listed(hg_gdata *g, const hg_load_ctx *ctx, const hg_ydoc *doc,
		      int named, hg_diags *d)
{
	char *dir = dir_of(doc->file);
	int rc = dir ? 0 : -1;
	for (int pass = 0; rc == 0 && pass < 2; pass++) {
		const hg_ynode *list = hg_ymap_get(doc->root, pass ? "decks" : "maps");
		if (!list)
			continue;
		if (hg_ycheck_kind(list, HG_Y_SEQ, pass ? "decks" : "maps", d) != 0) {
			rc = -1;
			break;
		}
		for (size_t i = 0; i < list->n && rc == 0; i++) {
			const char *s;
			if (hg_ystr(list->items[i], &s, d) != 0) {
				rc = -1;
				break;
			}
			char *path = named ? NULL : relative_to(doc->file, s);
			if (!named && !path) {
				rc = -1;
				break;
			}
			file_ref f = { named ? s : path, named ? N_("the scenarios file") : NULL,
				       list->items[i]->pos, dir };
			rc = pass ? add_deck(g, ctx, &f, -1, d) : add_map(g, ctx, &f, d);
			free(path);
		}
	}
	free(dir);
	return rc;
}

/* Loads everything from a scenarios file and the files it names; then the
 * overrides (a record's own map and deck files). */
static hg_gdata *load_all(const hg_load_ctx *ctx, const file_ref *scenarios,
			  const file_ref *maps, size_t nmaps, const file_ref *decks,
			  const int *deck_religion, size_t ndecks, hg_diags *d)
{
	hg_ydoc *doc = load_ref(ctx, scenarios, N_("a scenarios file"), scenarios_file_keys, d);
	if (!doc)
		return NULL;
	/* Short of memory inside a unit of work (util.c), a step fails or
	 * leaves a part out, and the data is dropped at the end. */
	hg_gdata *g = hg_try_calloc(1, sizeof *g);
	if (!g) {
		hg_ydoc_free(doc);
		return NULL;
	}
	int rc = 0;
	if (!doc->root) {
		hg_pos pos = { doc->file, 1, 1 };
		hg_diag_add(d, HG_ERROR, pos, "data.missing-key", "the scenarios file is empty");
		rc = -1;
	} else if (hg_ycheck_keys(doc->root, scenarios_file_keys, "the scenarios file", d) != 0 ||
		   hg_provs_collect(&g->provs, doc, d) != 0) {
		rc = -1;
	}
	if (rc == 0)
		rc = add_listed(g, ctx, doc, scenarios->named_by != NULL, d);
	for (size_t i = 0; rc == 0 && i < nmaps; i++)
		rc = add_map(g, ctx, &maps[i], d);
	for (size_t i = 0; rc == 0 && i < ndecks; i++)
		rc = add_deck(g, ctx, &decks[i], deck_religion ? deck_religion[i] : -1, d);
	for (int r = 0; rc == 0 && r < CK_NRELIGIONS; r++)
		if (!g->decks[r].cards) {
			hg_pos pos = { doc->file, 1, 1 };
			hg_diag_add(d, HG_ERROR, pos, "data.reference",
				    "no deck file gives the %s deck", religion_words[r]);
			rc = -1;
		}
	if (rc == 0)
		rc = load_scenarios(g, hg_ymap_get(doc->root, "scenarios"), d);
	hg_ydoc_free(doc);
	if (rc == 0)
		ck_spellings_load(g);
	if (rc != 0 || hg_alloc_lost()) {
		hg_ck_unload(g);
		return NULL;
	}
	return g;
}

hg_gdata *hg_ck_load_files(const char *scenarios, const char *const *maps, size_t nmaps,
			   const char *const *decks, size_t ndecks, hg_diags *d)
{
	hg_pos nowhere = { NULL, 0, 0 };
	file_ref s = { scenarios, NULL, nowhere, NULL };
	file_ref *m = hg_try_calloc(nmaps + 1, sizeof *m);
	file_ref *k = hg_try_calloc(ndecks + 1, sizeof *k);
	if (!m || !k) {
		free(m);
		free(k);
		return NULL;	/* (the unit of work reports it) */
	}
	for (size_t i = 0; i < nmaps; i++)
		m[i] = (file_ref){ maps[i], NULL, nowhere, NULL };
	for (size_t i = 0; i < ndecks; i++)
		k[i] = (file_ref){ decks[i], NULL, nowhere, NULL };
	hg_gdata *g = load_all(NULL, &s, m, nmaps, k, NULL, ndecks, d);
	free(m);
	free(k);
	return g;
}

/* The tags with which a record names its own data files, relative to its
 * directory (herald-crusader-kingdoms(7), DATA). */
static const char *const deck_tags[CK_NRELIGIONS] = { "MuslimDeckFile", "ChristianDeckFile" };

const hg_data_tag ck_data_tags[] = {
	{ "ScenarioFile", NULL, 0 },
	{ "MapFile", NULL, 0 },
	{ "MuslimDeckFile", NULL, 0 },
	{ "ChristianDeckFile", NULL, 0 },
	{ NULL, NULL, 0 }
};

/* The tag `name` of the record as a file to read, or 0 when it has none. */
static int tag_ref(const hg_load_ctx *ctx, const char *name, const char *named_by,
		   file_ref *out)
{
	const hg_tag *t = ctx->rec ? hg_record_tag(ctx->rec, name) : NULL;
	if (!t)
		return 0;
	*out = (file_ref){ t->value, named_by, t->pos, NULL };
	return 1;
}

hg_gdata *ck_load(const hg_load_ctx *ctx, hg_buf *key, hg_diags *d)
{
	file_ref scenarios;
	char *bundled = NULL;
	if (!tag_ref(ctx, "ScenarioFile", N_("the ScenarioFile tag"), &scenarios)) {
		bundled = hg_datapath_find(ctx->path, "crusader-kingdoms/scenarios.yaml");
		if (!bundled) {
			hg_pos pos = { ctx->rec ? ctx->rec->file : NULL, 0, 0 };
			hg_diag *dg = hg_diag_add(d, HG_ERROR, pos, "data.io",
						  "cannot find crusader-kingdoms/scenarios.yaml in the data path");
			hg_diag_note(dg, "give the data directory with --data-dir or HERALD_DATA_PATH");
			return NULL;
		}
		scenarios = (file_ref){ bundled, NULL, { NULL, 0, 0 }, NULL };
	}
	file_ref map;
	size_t nmaps = (size_t)tag_ref(ctx, "MapFile", N_("the MapFile tag"), &map);
	file_ref decks[CK_NRELIGIONS];
	int religion[CK_NRELIGIONS];
	size_t ndecks = 0;
	static const char *const deck_named_by[CK_NRELIGIONS] = {
		N_("the MuslimDeckFile tag"), N_("the ChristianDeckFile tag")
	};
	for (int r = 0; r < CK_NRELIGIONS; r++)
		if (tag_ref(ctx, deck_tags[r], deck_named_by[r], &decks[ndecks]))
			religion[ndecks++] = r;
	hg_gdata *g = load_all(ctx, &scenarios, &map, nmaps, decks, religion, ndecks, d);
	if (g && key) {
		hg_buf_printf(key, "scenarios %s", scenarios.name);
		for (int i = 0; i < g->nmaps; i++)
			hg_buf_printf(key, ", map %s", g->maps[i].file);
		for (int r = 0; r < CK_NRELIGIONS; r++)
			hg_buf_printf(key, ", deck %s", g->decks[r].file);
	}
	free(bundled);
	return g;
}
