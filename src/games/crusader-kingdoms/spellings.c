/* spellings.c - Crusader Kingdoms: the canonical ids as records spell
 * them, for the action parser.
 *
 * Every name in every action is looked up, and `herald fmt` (and herald
 * gen) write the canonical ids, already folded: "tropa-2", "homs",
 * "damasco".  hg_names_find folds the word and hashes it for each lookup;
 * a word spelled exactly as one of these ids is found here by a byte
 * comparison or two instead: the ids that begin and end with bytes of the
 * buckets of the word's first and last bytes ("tropa-1" .. "tropa-4"
 * differ there), found by a direct index on the two buckets (nearly
 * always one id), compared whole.
 * Only ids whose folded form is plain ASCII are kept: a word equal to one
 * of them folds to itself (ASCII folds by lowering case, and the id has
 * no capitals), so hg_names_find would give it the very values stored
 * here, which were read from the tables themselves.  Any other spelling
 * (an alias, capitals, accents) goes on to hg_names_find.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ck.h"

static int by_name(const void *a, const void *b)
{
	const ck_spelling *x = a, *y = b;
	return strcmp(x->name, y->name);
}

void hg_ck_spellings_build(ck_spellings *sp, const char *const *ids, int nids,
			   const hg_names *const *tables, int ntables)
{
	memset(sp, 0, sizeof *sp);
	memset(sp->by_ends, CK_SPELL_NONE, sizeof sp->by_ends);
	if (nids <= 0)
		return;
	sp->v = hg_try_calloc((size_t)nids, sizeof *sp->v);
	if (!sp->v)
		return;		/* (the unit of work reports it; the data is dropped) */
	for (int i = 0; i < nids; i++) {
		char *f = hg_name_fold(ids[i]);
		ck_spelling *e = &sp->v[sp->n];
		int found = 0;
		for (int t = 0; t < CK_NRELIGIONS; t++) {
			e->value[t] = t < ntables ? hg_names_find(tables[t], f) : -1;
			found |= e->value[t] >= 0;
		}
		int dup = 0;
		for (int k = 0; k < sp->n; k++)
			dup |= strcmp(sp->v[k].name, f) == 0;
		/* ASCII ids only (the index has no room for other bytes), of
		 * at most CK_MAX_ID bytes (the entry's room: the loader allows
		 * no longer id), and no more than the index counts (any other
		 * is left to hg_names_find) */
		size_t len = strlen(f);
		if (!found || dup || len == 0 || len > CK_MAX_ID || !hg_is_ascii(f, len) ||
		    sp->n >= CK_SPELL_MAX) {
			free(f);
			continue;
		}
		memcpy(e->name, f, len + 1);
		e->len = len;
		free(f);
		sp->n++;
	}
	qsort(sp->v, (size_t)sp->n, sizeof *sp->v, by_name);
	/* each chain of names whose ends share buckets in their sorted
	 * order: built from the last name back */
	for (int i = sp->n - 1; i >= 0; i--) {
		ck_spelling *e = &sp->v[i];
		unsigned char *head =
			&sp->by_ends[ck_spell_bucket((unsigned char)e->name[0])]
				    [ck_spell_bucket((unsigned char)e->name[e->len - 1])];
		e->next = *head;
		*head = (unsigned char)i;
	}
}

void hg_ck_spellings_free(ck_spellings *sp)
{
	free(sp->v);
	memset(sp, 0, sizeof *sp);
	memset(sp->by_ends, CK_SPELL_NONE, sizeof sp->by_ends);
}

const ck_spelling *ck_spelling_find_any(const ck_spellings *sp, const char *word, size_t len)
{
	return ck_spelling_walk(sp, word, len, 0);
}

const ck_spelling *hg_ck_spelling_find(const ck_spellings *sp, const char *word)
{
	return hg_ck_spelling_find_n(sp, word, strlen(word));
}

const ck_spelling *hg_ck_spelling_find_n(const ck_spellings *sp, const char *word, size_t len)
{
	return ck_spelling_find_n(sp, word, len);
}

/* The ids of each map's areas, of each scenario's factions, and of the
 * cards of both decks (a card id may name a card in each deck). */
void ck_spellings_load(hg_gdata *g)
{
	const char *ids[CK_MAX_AREAS + 2 * CK_MAX_CARDS];
	for (int i = 0; i < g->nmaps; i++) {
		ck_map *m = &g->maps[i];
		int n = 0;
		for (int a = 0; a < m->nareas && n < CK_MAX_AREAS; a++)
			ids[n++] = m->areas[a].id;
		const hg_names *t[] = { m->names };
		hg_ck_spellings_build(&m->spell, ids, n, t, 1);
	}
	for (int i = 0; i < g->nscenarios; i++) {
		ck_scenario *sc = &g->scenarios[i];
		int n = 0;
		for (int f = 0; f < sc->nfactions && n < CK_MAX_SIDES; f++)
			ids[n++] = sc->factions[f].id;
		const hg_names *t[] = { sc->seats };
		hg_ck_spellings_build(&sc->spell, ids, n, t, 1);
	}
	int n = 0;
	for (int r = 0; r < CK_NRELIGIONS; r++)
		for (int c = 0; c < g->decks[r].ncards && c < CK_MAX_CARDS; c++)
			ids[n++] = g->decks[r].cards[c].id;
	const hg_names *t[] = { g->decks[0].names, g->decks[1].names };
	hg_ck_spellings_build(&g->card_spell, ids, n, t, CK_NRELIGIONS);
}
