/* data.c - the deck file and the cards in play.
 *
 * The rule sheet prints no deck list: data/kingdoms-of-crusaders/deck.yaml
 * is a reconstruction, and a record may name its own deck file with the tag
 * DeckFile (herald-kingdoms-of-crusaders(7), DATA).  With three or four
 * players two decks are mixed: every physical card then gets its own id,
 * the deck file's id followed by 'a' (first deck) or 'b' (second deck)
 * (ruling 1). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "koc.h"

#define DECK_FILE "kingdoms-of-crusaders/deck.yaml"
#define GAME_ID "kingdoms-of-crusaders"

static void cards_free(hg_koc_cards *c)
{
	hg_strv_free(c->ids, c->n);
	free(c->mask);
	hg_names_free(c->names);
	free(c->by_number);
	free(c->next_same);
	memset(c, 0, sizeof *c);
}

void hg_koc_unload(hg_gdata *data)
{
	if (!data)
		return;
	for (size_t i = 0; i < data->ndeck; i++) {
		free(data->deck[i].id);
		hg_strv_free(data->deck[i].aliases, data->deck[i].naliases);
	}
	free(data->deck);
	for (unsigned k = 0; k < KOC_SECTORS; k++) {
		free(data->location[k].name);
		free(data->location[k].id);
	}
	hg_names_free(data->location_names);
	cards_free(&data->one);
	cards_free(&data->two);
	free(data->file);
	hg_provs_free(&data->provs);
	hg_koc_grammar_free(&data->grammar);
	free(data);
}

/* A card id or alias must read as one word of the notation (herald-
 * notation(5)) that is not a number: letters, digits, '_', '-', '.'. */
static int card_word_ok(const char *s)
{
	int nondigit = 0;
	if (!*s)
		return 0;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p >= 0x80 || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    *p == '_' || *p == '-' || *p == '.')
			nondigit = 1;
		else if (!(*p >= '0' && *p <= '9'))
			return 0;
	}
	return nondigit;
}

static int card_name(const hg_ynode *n, const char **out, const char *what, hg_diags *d)
{
	if (hg_yname(n, out, d) != 0)
		return -1;
	if (!card_word_ok(*out)) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, n->pos, "data.range",
					  "%s '%s' is not a word of the notation", what, *out);
		hg_diag_note(dg, "card ids and aliases use letters, digits, '_', '-' and '.', "
			     "and are not all digits");
		return -1;
	}
	return 0;
}

/* 'Unit Cards': a card shows one to five symbols, each kind at most once. */
static int card_symbols(const hg_ynode *list, const char *id, unsigned *mask, hg_diags *d)
{
	if (hg_ycheck_kind(list, HG_Y_SEQ, NULL, d) != 0)
		return -1;
	if (list->n == 0) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, list->pos, "koc.no-symbols",
					  "card '%s' shows no symbols (rule 'Unit Cards')", id);
		hg_diag_note(dg, "a card shows one to five of: lance, bow, swords, helmet, banner");
		return -1;
	}
	int rc = 0;
	*mask = 0;
	for (size_t i = 0; i < list->n; i++) {
		int kind;
		if (hg_yword(list->items[i], hg_koc_kind_names, &kind, d) != 0) {
			rc = -1;
			continue;
		}
		if (*mask & (1u << kind)) {
			hg_diag *dg = hg_diag_add(d, HG_ERROR, list->items[i]->pos,
						  "koc.symbol-twice",
						  "card '%s' shows '%s' twice (rule 'Unit Cards')",
						  id, hg_koc_kind_names[kind]);
			hg_diag_note(dg, "a card's symbols are a set: each kind appears on it at most once");
			rc = -1;
		}
		*mask |= 1u << kind;
	}
	return rc;
}

/* Binds a name, reporting a clash with where the other name was defined. */
static int bind_name(hg_names *names, const char *name, int value, hg_pos pos,
		     const hg_koc_card *deck, hg_diags *d)
{
	int clash;
	if (hg_names_add(names, name, value, &clash) == 0)
		return 0;
	hg_diag *dg = hg_diag_add(d, HG_ERROR, pos, "data.duplicate-id",
				  "the deck already has a card named '%s': a card appears twice", name);
	hg_diag_note(dg, "%s:%u:%u: card '%s' is defined here", deck[clash].pos.file,
		     deck[clash].pos.line, deck[clash].pos.col, deck[clash].id);
	hg_diag_note(dg, "each card of the deck is one physical card with its own id "
		     "(names compare without regard to case or accents)");
	return -1;
}

static int load_card(hg_gdata *g, const hg_ynode *node, hg_names *names, hg_diags *d)
{
	static const char *const keys[] = { "!id", "!symbols", "name", "aliases", NULL };
	if (hg_ycheck_kind(node, HG_Y_MAP, NULL, d) != 0 ||
	    hg_ycheck_keys(node, keys, NULL, d) != 0)
		return -1;
	const char *id;
	const hg_ynode *idn = hg_ymap_get(node, "id");
	if (card_name(idn, &id, "card id", d) != 0)
		return -1;
	hg_koc_card *c = &g->deck[g->ndeck];
	memset(c, 0, sizeof *c);
	c->pos = idn->pos;
	int rc = card_symbols(hg_ymap_get(node, "symbols"), id, &c->mask, d);
	const hg_ynode *name = hg_ymap_get(node, "name");
	const char *ignored;
	if (name && hg_ystr(name, &ignored, d) != 0)
		rc = -1;
	const hg_ynode *aliases = hg_ymap_get(node, "aliases");
	if (aliases && hg_ycheck_kind(aliases, HG_Y_SEQ, NULL, d) != 0)
		rc = -1;
	if (rc != 0)
		return -1;
	c->id = hg_try_strdup(id);
	if (!c->id)
		return -1;	/* (the unit of work reports it) */
	g->ndeck++;
	int value = (int)(g->ndeck - 1);
	if (bind_name(names, id, value, idn->pos, g->deck, d) != 0)
		rc = -1;
	for (size_t i = 0; aliases && i < aliases->n; i++) {
		const char *alias;
		if (card_name(aliases->items[i], &alias, "card alias", d) != 0) {
			rc = -1;
			continue;
		}
		if (bind_name(names, alias, value, aliases->items[i]->pos, g->deck, d) != 0) {
			rc = -1;
			continue;
		}
		char **more = hg_try_realloc(c->aliases, (c->naliases + 1) * sizeof *c->aliases);
		if (!more)
			return -1;
		c->aliases = more;
		if (!(more[c->naliases] = hg_try_strdup(alias)))
			return -1;
		c->naliases++;
	}
	return rc;
}

int hg_koc_id_number(const char *id)
{
	return koc_id_number(id);
}

/* hg_koc_cards.by_number.  A card goes in only when the names find it by
 * its id, so that what the index finds is what hg_names_find would. */
static void index_numbers(hg_koc_cards *out)
{
	int top = -1;
	for (size_t c = 0; c < out->n; c++) {
		int v = koc_id_number(out->ids[c]);
		top = v > top ? v : top;
	}
	out->nnumbers = (size_t)(top + 1);
	out->by_number = hg_try_malloc((out->nnumbers ? out->nnumbers : 1) * sizeof *out->by_number);
	out->next_same = hg_try_malloc((out->n ? out->n : 1) * sizeof *out->next_same);
	if (!out->by_number || !out->next_same)
		return;		/* (the unit of work reports it) */
	for (size_t v = 0; v < out->nnumbers; v++)
		out->by_number[v] = -1;
	/* From the last card down, so that each list runs in card order. */
	for (size_t c = out->n; c-- > 0;) {
		int v = koc_id_number(out->ids[c]);
		out->next_same[c] = -1;
		if (v < 0 || hg_names_find(out->names, out->ids[c]) != (int)c)
			continue;
		out->next_same[c] = out->by_number[v];
		out->by_number[v] = (int)c;
	}
}

int hg_koc_card_find(const hg_koc_cards *cards, const char *word)
{
	return koc_card_find(cards, word);
}

/* The cards in play with `copies` decks: ruling 1 names them. */
static void build_cards(hg_gdata *g, hg_koc_cards *out, unsigned copies)
{
	static const char suffix[2][2] = { "a", "b" };
	/* Short of memory (the unit of work reports it), the cards stop
	 * where it ran out, and the data is dropped. */
	out->ids = hg_try_calloc(g->ndeck * copies, sizeof *out->ids);
	out->mask = hg_try_calloc(g->ndeck * copies, 1);
	out->names = hg_names_new();
	if (!out->ids || !out->mask || !out->names)
		return;
	out->n = g->ndeck * copies;
	hg_buf b;
	hg_buf_init(&b);
	for (unsigned copy = 0; copy < copies && !hg_alloc_lost(); copy++)
		for (size_t i = 0; i < g->ndeck; i++) {
			size_t idx = copy * g->ndeck + i;
			const hg_koc_card *c = &g->deck[i];
			const char *sfx = copies > 1 ? suffix[copy] : "";
			hg_buf_clear(&b);
			hg_buf_printf(&b, "%s%s", c->id, sfx);
			if (hg_buf_failed(&b) || !(out->ids[idx] = hg_try_strdup(b.data)))
				break;
			out->mask[idx] = (unsigned char)c->mask;
			/* Suffixing every name keeps them distinct: two names that
			 * differ stay different, and 'a' never equals 'b'. */
			hg_names_add(out->names, b.data, (int)idx, NULL);
			for (size_t k = 0; k < c->naliases; k++) {
				hg_buf_clear(&b);
				hg_buf_printf(&b, "%s%s", c->aliases[k], sfx);
				hg_names_add(out->names, b.data, (int)idx, NULL);
			}
		}
	hg_buf_free(&b);
	if (!hg_alloc_lost())
		index_numbers(out);
}

static const char *const deck_keys[] = {
	"!game", "title", "notes", "victory_markers",
	"location_cards", "locations", "!cards", NULL
};

/* A word that names a location in an action: a word of the notation that
 * does not read as a sector's number ("3", "s3"). */
static int location_word_ok(const char *w)
{
	size_t skip = w[0] == 's' || w[0] == 'S';
	return card_word_ok(w) && strspn(w + skip, "0123456789") < strlen(w + skip);
}

/* Binds a location's id or alias to its sector (0-based). */
static int bind_location(hg_gdata *g, const char *word, unsigned k, hg_pos pos, hg_diags *d)
{
	if (!location_word_ok(word)) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, pos, "data.range",
					  "'%s' cannot name a location in an action", word);
		hg_diag_note(dg, "a location's name, its spaces written '-', and its aliases "
			     "are words of the notation (letters, digits, '_', '-', '.') "
			     "other than a sector's number ('3', 's3')");
		return -1;
	}
	int clash;
	if (hg_names_add(g->location_names, word, (int)k, &clash) == 0)
		return 0;
	hg_diag *dg = hg_diag_add(d, HG_ERROR, pos, "data.duplicate-id",
				  "'%s' already names location %d", word, clash + 1);
	hg_diag_note(dg, "each word names one location (without regard to case or accents)");
	return -1;
}

/* The published facts of the box beside the cards: how many victory
 * markers and location cards it holds, and the names of the five locations.
 * An action may write a sector as its location: the name with its spaces
 * written '-' ("county-of-edessa"), or one of its aliases ("edessa"); the
 * numbers stay the canonical form. */
static int load_location(hg_gdata *g, const hg_ynode *node, hg_diags *d)
{
	static const char *const keys[] = { "!number", "!name", "aliases", NULL };
	if (hg_ycheck_kind(node, HG_Y_MAP, NULL, d) != 0 ||
	    hg_ycheck_keys(node, keys, NULL, d) != 0)
		return -1;
	long number;
	const char *name;
	const hg_ynode *num = hg_ymap_get(node, "number");
	if (hg_yint(num, 1, KOC_SECTORS, &number, d) != 0 ||
	    hg_ystr(hg_ymap_get(node, "name"), &name, d) != 0)
		return -1;
	hg_koc_location *l = &g->location[number - 1];
	if (l->name) {
		hg_diag_add(d, HG_ERROR, num->pos, "data.duplicate-id",
			    "location %ld is named twice", number);
		return -1;
	}
	l->name = hg_try_strdup(name);
	l->id = hg_try_strdup(name);
	if (!g->location_names)
		g->location_names = hg_names_new();
	if (!l->name || !l->id || !g->location_names)
		return -1;	/* (the unit of work reports it) */
	for (char *p = l->id; *p; p++)
		*p = *p == ' ' ? '-' : *p >= 'A' && *p <= 'Z' ? (char)(*p - 'A' + 'a') : *p;
	const hg_ynode *namen = hg_ymap_get(node, "name");
	int rc = bind_location(g, l->id, (unsigned)number - 1, namen->pos, d);
	const hg_ynode *aliases = hg_ymap_get(node, "aliases");
	if (aliases && hg_ycheck_kind(aliases, HG_Y_SEQ, NULL, d) != 0)
		return -1;
	for (size_t i = 0; aliases && i < aliases->n; i++) {
		const char *alias;
		if (hg_yname(aliases->items[i], &alias, d) != 0 ||
		    bind_location(g, alias, (unsigned)number - 1, aliases->items[i]->pos, d) != 0)
			rc = -1;
	}
	return rc;
}

static int load_box(hg_gdata *g, const hg_ynode *root, hg_diags *d)
{
	int rc = 0;
	long n;
	const hg_ynode *node;
	if ((node = hg_ymap_get(root, "victory_markers"))) {
		if (hg_yint(node, KOC_SECTORS, 1000, &n, d) != 0)
			rc = -1;
		else
			g->victory_markers = (unsigned)n;
	}
	if ((node = hg_ymap_get(root, "location_cards"))) {
		if (hg_yint(node, 1, 1000, &n, d) != 0)
			rc = -1;
		else
			g->location_cards = (unsigned)n;
	}
	if ((node = hg_ymap_get(root, "locations"))) {
		if (hg_ycheck_kind(node, HG_Y_SEQ, NULL, d) != 0)
			return -1;
		for (size_t i = 0; i < node->n; i++)
			if (load_location(g, node->items[i], d) != 0)
				rc = -1;
	}
	return rc;
}

static int load_header(hg_gdata *g, const hg_ynode *root, hg_diags *d)
{
	if (hg_ycheck_kind(root, HG_Y_MAP, NULL, d) != 0 ||
	    hg_ycheck_keys(root, deck_keys, NULL, d) != 0)
		return -1;
	int rc = 0;
	const char *s;
	const hg_ynode *game = hg_ymap_get(root, "game");
	if (hg_ystr(game, &s, d) != 0)
		rc = -1;
	else if (!hg_name_eq(s, GAME_ID)) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, game->pos, "data.range",
					  "the deck file is for the game '%s'", s);
		hg_diag_note(dg, "a deck of The Kingdoms of Crusaders says 'game: %s'", GAME_ID);
		rc = -1;
	}
	const hg_ynode *n;
	if ((n = hg_ymap_get(root, "title")) && hg_ystr(n, &s, d) != 0)
		rc = -1;
	if ((n = hg_ymap_get(root, "notes")) && hg_ystr(n, &s, d) != 0)
		rc = -1;
	if (load_box(g, root, d) != 0)
		rc = -1;
	return rc;
}

static hg_gdata *load_doc(hg_ydoc *doc, const char *name, hg_diags *d)
{
	if (!doc)
		return NULL;
	if (!doc->root) {
		hg_pos pos = { doc->file ? doc->file : name, 1, 1 };
		hg_diag_add(d, HG_ERROR, pos, "data.missing-key",
			    "the deck file is empty: it needs the keys 'game' and 'cards'");
		hg_ydoc_free(doc);
		return NULL;
	}
	/* Short of memory inside a unit of work (util.c), each step below
	 * stops or leaves a part out, and the data is dropped at the end. */
	hg_gdata *g = hg_try_calloc(1, sizeof *g);
	if (!g || !(g->file = hg_try_strdup(doc->file ? doc->file : name))) {
		free(g);
		hg_ydoc_free(doc);
		return NULL;
	}
	int rc = load_header(g, doc->root, d);
	if (hg_provs_collect(&g->provs, doc, d) != 0)
		rc = -1;
	const hg_ynode *cards = rc == 0 ? hg_ymap_get(doc->root, "cards") : NULL;
	if (cards && hg_ycheck_kind(cards, HG_Y_SEQ, NULL, d) != 0)
		rc = -1;
	else if (cards && (cards->n == 0 || cards->n > KOC_MAX_DECK)) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, cards->pos, "data.range",
					  "the deck holds %zu cards", cards->n);
		hg_diag_note(dg, "a deck holds 1 to %d cards (and a game needs %d per player)",
			     KOC_MAX_DECK, KOC_PER_PLAYER);
		rc = -1;
	} else if (cards && !(g->deck = hg_try_calloc(cards->n, sizeof *g->deck))) {
		rc = -1;
	} else if (cards) {
		hg_names *names = hg_names_new();
		for (size_t i = 0; i < cards->n && !hg_alloc_lost(); i++)
			if (load_card(g, cards->items[i], names, d) != 0)
				rc = -1;
		hg_names_free(names);
	}
	/* The deck's positions point into the document: copy the file name
	 * into the deck's own storage before the document goes. */
	for (size_t i = 0; i < g->ndeck; i++)
		g->deck[i].pos.file = g->file;
	hg_ydoc_free(doc);
	if (rc != 0 || hg_alloc_lost()) {
		hg_koc_unload(g);
		return NULL;
	}
	build_cards(g, &g->one, 1);
	build_cards(g, &g->two, 2);
	if (hg_alloc_lost()) {
		hg_koc_unload(g);
		return NULL;
	}
	if (hg_koc_grammar_build(&g->grammar) != 0) {
		hg_koc_unload(g);
		return NULL;
	}
	return g;
}

hg_gdata *hg_koc_deck_parse(const char *name, const char *text, size_t len, hg_diags *d)
{
	return load_doc(hg_yaml_load_mem(name, text, len, d), name, d);
}

hg_gdata *hg_koc_deck_load(const char *path, hg_diags *d)
{
	return load_doc(hg_yaml_load_file(path, d), path, d);
}

/* The DeckFile tag names a deck relative to the record's directory, or
 * along the data path (--data-dir, HERALD_DATA_PATH, the installed data),
 * as any data file a record names (hg_data_load). */
hg_gdata *hg_koc_load(const hg_load_ctx *ctx, hg_buf *key, hg_diags *d)
{
	const hg_tag *tag = ctx->rec ? hg_record_tag(ctx->rec, "DeckFile") : NULL;
	hg_gdata *g;
	if (tag) {
		hg_data_name name = { tag->value, N_("the DeckFile tag"), tag->pos, NULL, "" };
		hg_data_kind kind = { N_("a deck file"), deck_keys };
		hg_ydoc *doc = hg_data_load(ctx, &name, &kind, d);
		if (!doc)
			return NULL;
		g = load_doc(doc, tag->value, d);
	} else {
		char *path = ctx->path ? hg_datapath_find(ctx->path, DECK_FILE) : NULL;
		if (!path) {
			hg_pos pos = ctx->rec ? ctx->rec->pos : (hg_pos){ NULL, 0, 0 };
			hg_diag *dg = hg_diag_add(d, HG_ERROR, pos, "koc.deck-file",
						  "the deck file '%s' is not installed", DECK_FILE);
			hg_diag_note(dg, "herald looks along --data-dir, HERALD_DATA_PATH and "
				     "the installed data directory");
			return NULL;
		}
		g = hg_koc_deck_load(path, d);
		free(path);
	}
	if (g && key)
		hg_buf_printf(key, "deck %s (%zu cards)", g->file, g->ndeck);
	return g;
}

const hg_koc_cards *hg_koc_cards_for(const hg_gdata *data, unsigned players)
{
	return players > 2 ? &data->two : &data->one;
}

void hg_koc_card_describe(const hg_koc_cards *cards, unsigned card, hg_buf *out)
{
	hg_buf_printf(out, "%s [", cards->ids[card]);
	hg_koc_mask_describe(cards->mask[card], out);
	hg_buf_putc(out, ']');
}
