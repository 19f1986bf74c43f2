/* deck.c - deck files and the construction rules of rule 1
 * ("Requerimientos") and rule 1, B ("separa tu baraja en 3 Montos"):
 * 40 to 60 cards; at most 5 copies of a name in basto, copa and espada;
 * oro at most one copy of each and 10 in all; a tower; three piles.
 * Every violation is reported where the deck file says it. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "enc.h"
#include "enc-deck.h"

void enc_deck_free(enc_deck *deck)
{
	if (!deck)
		return;
	free(deck->id);
	free(deck->name);
	free(deck->file);
	free(deck->entries);
	free(deck);
}

/* The deck's id when the file gives none: its file name without .yaml. */
static char *id_from_path(const char *path)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	size_t n = strlen(base);
	if (n > 5 && strcmp(base + n - 5, ".yaml") == 0)
		n -= 5;
	else if (n > 4 && strcmp(base + n - 4, ".yml") == 0)
		n -= 4;
	return hg_try_strndup(base, n);
}

/* rule 1: "1 TORRE Atempus ... cada uno o por equipo": a deck may come
 * without a tower, its player then sharing a teammate's; a record whose
 * side has no tower at all is refused (state.c, ruling 28). */
static int check_tower(const enc_pool *pool, enc_deck *deck, const hg_ynode *root,
		       hg_diags *d)
{
	const hg_ynode *t = hg_ymap_get(root, "tower");
	if (!t)
		return 0;	/* deck->tower stays -1 */
	const char *s;
	if (hg_ystr(t, &s, d) != 0)
		return -1;
	int c = enc_find_card(pool, s);
	if (c < 0) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, t->pos, "data.reference",
					  "unknown tower '%s'", s);
		enc_suggest_cards(pool, s, dg);
		return -1;
	}
	if (!pool->cards[c].tower) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, t->pos, "enc.deck-no-tower",
					  "'%s' is not an Atempus tower (rule 1)", pool->cards[c].id);
		for (size_t i = 0; i < pool->ncards; i++)
			if (pool->cards[i].tower) {
				hg_diag_note(dg, "a tower of the pool: '%s'", pool->cards[i].id);
				break;
			}
		return -1;
	}
	deck->tower = c;
	return 0;
}

static int add_entry(enc_deck *deck, size_t *cap, int card, int count, int pile, hg_pos pos)
{
	if (HG_TRY_GROW(deck->entries, *cap, deck->nentries + 1) != 0)
		return -1;	/* (the unit of work reports it) */
	enc_deck_entry *e = &deck->entries[deck->nentries++];
	e->card = card;
	e->count = count;
	e->pile = pile;
	e->pos = pos;
	return 0;
}

/* One pile: a mapping of card to copies, in the order the file lists. */
static int load_pile(const enc_pool *pool, enc_deck *deck, size_t *cap, int p,
		     const hg_ynode *n, hg_diags *d)
{
	if (n->kind == HG_Y_SCALAR && n->scalar[0] == '\0') {
		hg_diag_add(d, HG_ERROR, n->pos, "enc.deck-pile-empty",
			    "pile %d holds no card (rule 1, B)", p + 1);
		return -1;
	}
	if (hg_ycheck_kind(n, HG_Y_MAP, "a pile (card: copies)", d) != 0)
		return -1;
	if (hg_ymap_len(n) == 0) {
		hg_diag_add(d, HG_ERROR, n->pos, "enc.deck-pile-empty",
			    "pile %d holds no card (rule 1, B)", p + 1);
		return -1;
	}
	int rc = 0;
	for (size_t i = 0; i < hg_ymap_len(n); i++) {
		const hg_ynode *k = hg_ymap_key(n, i), *v = hg_ymap_value(n, i);
		const char *name;
		long count;
		if (hg_ystr(k, &name, d) != 0) {
			rc = -1;
			continue;
		}
		int c = enc_find_card(pool, name);
		if (c < 0) {
			hg_diag *dg = hg_diag_add(d, HG_ERROR, k->pos, "data.reference",
						  "unknown card '%s'", name);
			enc_suggest_cards(pool, name, dg);
			rc = -1;
			continue;
		}
		if (hg_yint(v, 1, ENC_MAX_DECK, &count, d) != 0) {
			rc = -1;
			continue;
		}
		if (pool->cards[c].tower) {
			hg_diag *dg = hg_diag_add(d, HG_ERROR, k->pos, "enc.deck-tower-in-pile",
						  "the tower '%s' is in pile %d; a tower stands apart, in view (rule 5)",
						  pool->cards[c].id, p + 1);
			hg_diag_note(dg, "name it with 'tower:' instead");
			rc = -1;
			continue;
		}
		if (add_entry(deck, cap, c, (int)count, p, k->pos) != 0)
			return -1;
	}
	return rc;
}

/* rule 1: copies of a name, oro copies and oro in all. */
static int check_copies(const enc_pool *pool, const enc_deck *deck, hg_diags *d)
{
	int rc = 0, oro = 0, oro_reported = 0;
	for (size_t i = 0; i < deck->nentries; i++) {
		const enc_deck_entry *e = &deck->entries[i];
		const enc_card *c = &pool->cards[e->card];
		/* Copies count by name: every entry so far of a card of this name. */
		int copies = 0, before = 0;
		for (size_t k = 0; k <= i; k++) {
			const enc_card *o = &pool->cards[deck->entries[k].card];
			if (hg_name_eq(o->name, c->name)) {
				copies += deck->entries[k].count;
				if (k < i)
					before += deck->entries[k].count;
			}
		}
		if (c->suit == ENC_ORO) {
			oro += e->count;
			if (copies > 1) {
				hg_diag *dg = hg_diag_add(d, HG_ERROR, e->pos, "enc.deck-oro-copies",
							  "%d copies of the oro card '%s'; oro cards allow one copy each (rule 1)",
							  copies, c->id);
				if (before)
					hg_diag_note(dg, "%d already listed before this entry", before);
				rc = -1;
			}
			if (oro > ENC_MAX_ORO && !oro_reported) {
				hg_diag *dg = hg_diag_add(d, HG_ERROR, e->pos, "enc.deck-oro-total",
							  "%d oro cards in the deck with '%s'; at most %d in all (rule 1)",
							  oro, c->id, ENC_MAX_ORO);
				hg_diag_note(dg, "oro cards: every card of the suit oro, in all three piles");
				oro_reported = 1;
				rc = -1;
			}
		} else if (copies > ENC_MAX_COPIES && before <= ENC_MAX_COPIES) {
			hg_diag *dg = hg_diag_add(d, HG_ERROR, e->pos, "enc.deck-copies",
						  "%d copies of '%s'; at most %d of one name (rule 1)",
						  copies, c->name, ENC_MAX_COPIES);
			if (before)
				hg_diag_note(dg, "%d already listed before this entry", before);
			rc = -1;
		}
	}
	return rc;
}

const char *const enc_deck_file_keys[] = {
	"reconstructed", "id", "name", "description", "tower", "!piles", NULL
};

enc_deck *enc_deck_load(const enc_pool *pool, const char *path, hg_diags *d)
{
	return enc_deck_load_doc(pool, hg_yaml_load_file(path, d), d);
}

enc_deck *enc_deck_load_doc(const enc_pool *pool, hg_ydoc *doc, hg_diags *d)
{
	static const char *const *const keys = enc_deck_file_keys;
	if (!doc)
		return NULL;
	const hg_ynode *root = doc->root;
	if (!root) {
		hg_pos pos = { doc->file, 1, 1 };
		hg_diag_add(d, HG_ERROR, pos, "data.type", "the deck file is empty");
		hg_ydoc_free(doc);
		return NULL;
	}
	if (hg_ycheck_kind(root, HG_Y_MAP, "a deck", d) != 0 ||
	    hg_ycheck_keys(root, keys, "a deck", d) != 0) {
		hg_ydoc_free(doc);
		return NULL;
	}
	/* Short of memory inside a unit of work (util.c), a part is left
	 * out and the deck is dropped at the end. */
	enc_deck *deck = hg_try_calloc(1, sizeof *deck);
	if (!deck || !(deck->file = hg_try_strdup(doc->file))) {
		free(deck);
		hg_ydoc_free(doc);
		return NULL;
	}
	deck->pos = root->pos;
	deck->tower = -1;
	int rc = 0, flag;
	const hg_ynode *n;
	const char *s;
	if ((n = hg_ymap_get(root, "reconstructed")) != NULL && hg_ybool(n, &flag, d) != 0)
		rc = -1;
	if ((n = hg_ymap_get(root, "description")) != NULL && hg_ystr(n, &s, d) != 0)
		rc = -1;
	if ((n = hg_ymap_get(root, "id")) != NULL) {
		if (hg_yname(n, &s, d) != 0)
			rc = -1;
		else
			deck->id = hg_try_strdup(s);
	}
	if (!deck->id)
		deck->id = id_from_path(doc->file);
	if ((n = hg_ymap_get(root, "name")) != NULL && hg_yname(n, &s, d) == 0)
		deck->name = hg_try_strdup(s);
	else if (n)
		rc = -1;
	if (!deck->name && deck->id)
		deck->name = hg_try_strdup(deck->id);
	if (!deck->id || !deck->name)
		rc = -1;
	if (check_tower(pool, deck, root, d) != 0)
		rc = -1;

	const hg_ynode *piles = hg_ymap_get(root, "piles");
	size_t cap = 0;
	if (hg_ycheck_kind(piles, HG_Y_SEQ, "the list of three piles", d) != 0) {
		rc = -1;
	} else {
		if (piles->n != ENC_PILES) {
			hg_diag *dg = hg_diag_add(d, HG_ERROR, piles->pos, "enc.deck-piles",
						  "the deck is split into %zu piles; it must be split into %d (rule 1, B)",
						  piles->n, ENC_PILES);
			hg_diag_note(dg, "'piles' lists three mappings of card to copies");
			rc = -1;
		}
		/* The size means little until the split is right. */
		int entries_ok = piles->n == ENC_PILES;
		for (size_t p = 0; p < piles->n && p < ENC_PILES; p++)
			if (load_pile(pool, deck, &cap, (int)p, piles->items[p], d) != 0) {
				rc = -1;
				entries_ok = 0;
			}
		int total = 0;
		for (size_t i = 0; i < deck->nentries; i++)
			total += deck->entries[i].count;
		if (entries_ok && (total < ENC_MIN_DECK || total > ENC_MAX_DECK)) {
			hg_diag *dg = hg_diag_add(d, HG_ERROR, piles->pos, "enc.deck-size",
						  "the deck holds %d cards; a deck holds %d to %d (rule 1)",
						  total, ENC_MIN_DECK, ENC_MAX_DECK);
			for (int p = 0; p < ENC_PILES; p++) {
				int k = 0;
				for (size_t i = 0; i < deck->nentries; i++)
					if (deck->entries[i].pile == p)
						k += deck->entries[i].count;
				hg_diag_note(dg, "pile %d: %d cards", p + 1, k);
			}
			rc = -1;
		}
		if (check_copies(pool, deck, d) != 0)
			rc = -1;
		if (rc == 0) {
			for (size_t i = 0; i < deck->nentries; i++) {
				const enc_deck_entry *e = &deck->entries[i];
				for (int k = 0; k < e->count; k++)
					deck->pile[e->pile][deck->pile_n[e->pile]++] = e->card;
			}
			deck->total = total;
		}
	}
	hg_ydoc_free(doc);
	if (rc != 0 || hg_alloc_lost()) {
		enc_deck_free(deck);
		return NULL;
	}
	return deck;
}

int hg_enc_deck_check_with(const hg_datapath *path, const char *const *card_files,
			   size_t nfiles, const char *deck_file, hg_diags *d)
{
	enc_pool pool;
	enc_pool_init(&pool);
	int rc;
	if (nfiles == 0) {
		rc = enc_pool_load_bundled(&pool, path, d);
	} else {
		rc = 0;
		for (size_t i = 0; i < nfiles; i++)
			if (enc_pool_load_file(&pool, card_files[i], d) != 0)
				rc = -1;
		if (rc == 0) {
			hg_pos nowhere = { NULL, 0, 0 };
			rc = enc_pool_finish(&pool, nowhere, d);
		}
	}
	if (rc == 0) {
		enc_deck *deck = enc_deck_load(&pool, deck_file, d);
		rc = deck ? 0 : -1;
		enc_deck_free(deck);
	}
	enc_pool_free(&pool);
	return rc;
}

int hg_enc_deck_check(const hg_datapath *path, const char *deck_file, hg_diags *d)
{
	return hg_enc_deck_check_with(path, NULL, 0, deck_file, d);
}
