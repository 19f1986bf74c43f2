/* data.c - Encrucijada's card pool: resource types, civilisations, cards and
 * Atempus towers, read from YAML card files and validated field by field
 * (rule 2, "Partes de las cartas").  The format is in
 * herald-encrucijada(7), CARD FILES. */
#include "config.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "enc.h"

const char *const enc_suit_names[] = { "oro", "copa", "basto", "espada", NULL };

/* The bundled, reconstructed starter set (data/encrucijada/). */
const char *const enc_bundled_card_files[] = {
	"encrucijada/resources.yaml",
	"encrucijada/towers.yaml",
	"encrucijada/cards-aurora.yaml",
	"encrucijada/cards-ocaso.yaml",
	"encrucijada/cards-pacificadores.yaml",
	NULL
};

/* The bundled sample decks, loaded with the bundled pool (see engine.c). */
const char *const enc_bundled_deck_files[] = {
	"encrucijada/decks/aurora-vanguardia.yaml",
	"encrucijada/decks/aurora-cosecha.yaml",
	"encrucijada/decks/ocaso-sombras.yaml",
	"encrucijada/decks/ocaso-ritual.yaml",
	"encrucijada/decks/concordia-mixta.yaml",
	NULL
};

static const char *const mark_words[] = {
	"volador", "antiaereo", "marino", "invade", "defence", NULL
};

void enc_pool_init(enc_pool *pool)
{
	memset(pool, 0, sizeof *pool);
	pool->res_names = hg_names_new();
	pool->card_names = hg_names_new();
	pool->civ_names = hg_names_new();
}

static void card_free(enc_card *c)
{
	free(c->id);
	free(c->name);
	hg_strv_free(c->aliases, c->naliases);
	free(c->klass);
	enc_effect_free(c->effect);
}

void enc_pool_free(enc_pool *pool)
{
	for (int i = 0; i < pool->nres; i++) {
		free(pool->res[i].id);
		free(pool->res[i].name);
	}
	for (size_t i = 0; i < pool->nciv; i++) {
		free(pool->civs[i].id);
		free(pool->civs[i].name);
	}
	free(pool->civs);
	for (size_t i = 0; i < pool->ncards; i++)
		card_free(&pool->cards[i]);
	free(pool->cards);
	free(pool->by_id);
	hg_names_free(pool->res_names);
	hg_names_free(pool->card_names);
	hg_names_free(pool->civ_names);
	hg_strv_free(pool->files, pool->nfiles);
	hg_provs_free(&pool->provs);
	memset(pool, 0, sizeof *pool);
}

/* The pair of ASCII letters a name begins with (enc_pool.by_id), or -1. */
static int id_pair(const char *name)
{
	if (name[0] < 'a' || name[0] > 'z' || name[1] < 'a' || name[1] > 'z')
		return -1;
	return 26 * (name[0] - 'a') + (name[1] - 'a');
}

/* enc_id_entry's words of a name of `len` bytes (len >= 2), which cover
 * its bytes from 2 on: from 10 bytes, eight from byte 2 and the last
 * eight; from 4 to 9, four from byte 2 (or from the start, for 4 and 5)
 * and the last four, without a loop over the bytes; under 4, the bytes. */
static inline void id_words(const char *name, size_t len, uint64_t *head, uint64_t *tail)
{
	*head = 0;
	*tail = 0;
	if (len >= 10) {
		memcpy(head, name + 2, 8);
		memcpy(tail, name + len - 8, 8);
	} else if (len >= 4) {
		uint32_t a, b;
		memcpy(&a, name + (len >= 6 ? 2 : len - 4), 4);
		memcpy(&b, name + len - 4, 4);
		*head = a;
		*tail = b;
	} else {
		memcpy(head, name + 2, len - 2);
	}
}

/* enc_pool.by_id: a card whose id card_names finds as itself (so not one
 * whose id is another card's alias, nor one with capitals) is listed
 * under its id's first two letters.  A name equal to its id, byte for
 * byte, is then that card for card_names too. */
static void index_ids(enc_pool *pool)
{
	size_t ncards = pool->ncards < 0x7fff ? pool->ncards : 0x7fff;
	int *pair = hg_try_malloc((ncards ? ncards : 1) * sizeof *pair);
	if (!pair)
		return;		/* (the unit of work reports it) */
	unsigned count[26 * 26 + 1] = { 0 };
	for (size_t i = 0; i < ncards; i++) {
		const char *id = pool->cards[i].id;
		pair[i] = id_pair(id);
		if (strlen(id) > 0xffff)
			pair[i] = -1;	/* left to card_names */
		if (pair[i] >= 0 && hg_names_find(pool->card_names, id) != (int)i)
			pair[i] = -1;
		if (pair[i] >= 0)
			count[pair[i] + 1]++;
	}
	/* Each pair's cards begin where the pairs before it end; within a
	 * pair, in pool order. */
	for (int k = 0; k < 26 * 26; k++) {
		count[k + 1] += count[k];
		pool->by_id_from[k] = (unsigned short)count[k];
	}
	pool->by_id_from[26 * 26] = (unsigned short)count[26 * 26];
	free(pool->by_id);
	pool->by_id = hg_try_calloc(ncards ? ncards : 1, sizeof pool->by_id[0]);
	for (size_t i = 0; !pool->by_id && i < 26 * 26 + 1; i++)
		pool->by_id_from[i] = 0;	/* none: card_names finds them */
	for (size_t i = 0; pool->by_id && i < ncards; i++)
		if (pair[i] >= 0) {
			enc_id_entry *e = &pool->by_id[count[pair[i]]++];
			const char *id = pool->cards[i].id;
			e->len = (unsigned short)strlen(id);
			e->card = (short)i;
			id_words(id, e->len, &e->head, &e->tail);
		}
	free(pair);
}

int enc_find_card(const enc_pool *pool, const char *name)
{
	return enc_find_card_n(pool, name, strlen(name));
}

int enc_find_card_n(const enc_pool *pool, const char *name, size_t len)
{
	int k = pool->by_id ? id_pair(name) : -1;
	if (k >= 0 && len <= 0xffff) {
		/* The first two letters are the pair's: compare the rest.  The
		 * words cover all of it up to 18 bytes. */
		uint64_t head, tail;
		id_words(name, len, &head, &tail);
		for (int i = pool->by_id_from[k]; i < pool->by_id_from[k + 1]; i++) {
			const enc_id_entry *e = &pool->by_id[i];
			if (e->len == len && e->head == head && e->tail == tail &&
			    (len <= 18 || memcmp(pool->cards[e->card].id + 10, name + 10, len - 18) == 0))
				return e->card;
		}
	}
	return hg_names_find(pool->card_names, name);
}

int hg_enc_find_card(const enc_pool *pool, const char *name)
{
	return enc_find_card(pool, name);
}

int hg_enc_find_card_by_names(const enc_pool *pool, const char *name)
{
	return hg_names_find(pool->card_names, name);
}

int enc_find_res(const enc_pool *pool, const char *name)
{
	return hg_names_find(pool->res_names, name);
}

void enc_suggest_cards(const enc_pool *pool, const char *name, hg_diag *dg)
{
	int v[3];
	size_t n = hg_names_suggest(pool->card_names, name, v, 3);
	if (n == 0)
		return;
	hg_buf b;
	hg_buf_init(&b);
	for (size_t i = 0; i < n; i++)
		hg_buf_printf(&b, "%s'%s'", i ? ", " : "", pool->cards[v[i]].id);
	hg_diag_note(dg, "did you mean %s?", b.data);
	hg_buf_free(&b);
}

/* Words the notation gives a meaning of its own: a stack ('a', 'b.2'), a
 * number, or a keyword where a card name may also stand. */
int enc_is_reserved_name(const char *name)
{
	char *f = hg_name_fold(name);
	int reserved = 0;
	size_t n = strlen(f);
	if (n == 0 || strcmp(f, "?") == 0 || strcmp(f, "tower") == 0 ||
	    strcmp(f, "army") == 0 || strcmp(f, "torre") == 0 ||
	    strcmp(f, "ejercito") == 0) {
		reserved = 1;
	} else if (f[0] >= 'a' && f[0] <= 'z' && (n == 1 || f[1] == '.')) {
		reserved = 1;
		for (size_t i = 2; i < n; i++)
			if (f[i] < '0' || f[i] > '9')
				reserved = 0;
		if (n == 2)
			reserved = 0;
	} else {
		reserved = 1;
		for (size_t i = 0; i < n; i++)
			if (f[i] < '0' || f[i] > '9')
				reserved = 0;
	}
	free(f);
	return reserved;
}

/* An id is written in records: lowercase letters, digits and '-'. */
static int check_id(const hg_ynode *n, const char *what, hg_diags *d)
{
	const char *s = n->scalar;
	int letter = 0;
	for (const char *p = s; *p; p++) {
		if (*p >= 'a' && *p <= 'z')
			letter = 1;
		else if (!(*p >= '0' && *p <= '9') && *p != '-') {
			hg_diag_add(d, HG_ERROR, n->pos, "data.range",
				    "%s id '%s' may hold only lowercase letters, digits and '-'",
				    what, s);
			return -1;
		}
	}
	/* Civilisations are never written in records. */
	if (!letter || (strcmp(what, "civilisation") != 0 && enc_is_reserved_name(s))) {
		hg_diag_add(d, HG_ERROR, n->pos, "data.range",
			    "%s id '%s' would read as a stack, a number or a keyword of the notation",
			    what, s);
		return -1;
	}
	return 0;
}

/* Binds a name to value v in t, reporting a clash with `other`'s id. */
static int bind_name(hg_names *t, const hg_ynode *n, const char *name, int v,
		     const char *what, const char *(*id_of)(const enc_pool *, int),
		     const enc_pool *pool, hg_diags *d)
{
	int clash;
	if (hg_names_add(t, name, v, &clash) == 0)
		return 0;
	hg_diag_add(d, HG_ERROR, n->pos, "data.duplicate-id",
		    "%s name '%s' is already used by '%s'", what, name,
		    id_of(pool, clash));
	return -1;
}

static const char *card_id_of(const enc_pool *pool, int i)
{
	return pool->cards[i].id;
}

static const char *res_id_of(const enc_pool *pool, int i)
{
	return pool->res[i].id;
}

static const char *civ_id_of(const enc_pool *pool, int i)
{
	return pool->civs[i].id;
}

/* resources: [{id, name, aliases, special}] */
static int load_resources(enc_pool *pool, const hg_ynode *list, hg_diags *d)
{
	static const char *const keys[] = { "!id", "name", "aliases", "special", NULL };
	if (hg_ycheck_kind(list, HG_Y_SEQ, "the list of resources", d) != 0)
		return -1;
	int rc = 0;
	for (size_t i = 0; i < list->n; i++) {
		const hg_ynode *r = list->items[i];
		if (hg_ycheck_kind(r, HG_Y_MAP, "a resource", d) != 0 ||
		    hg_ycheck_keys(r, keys, "a resource", d) != 0) {
			rc = -1;
			continue;
		}
		const hg_ynode *id = hg_ymap_get(r, "id");
		const char *ids;
		if (hg_yname(id, &ids, d) != 0 || check_id(id, "resource", d) != 0) {
			rc = -1;
			continue;
		}
		if (pool->nres >= ENC_MAX_RES) {
			hg_diag_add(d, HG_ERROR, r->pos, "data.range",
				    "more than %d resource types", ENC_MAX_RES);
			return -1;
		}
		enc_resource *res = &pool->res[pool->nres];
		memset(res, 0, sizeof *res);
		const char *name = ids;
		const hg_ynode *nn = hg_ymap_get(r, "name");
		if (nn && hg_yname(nn, &name, d) != 0)
			rc = -1;
		const hg_ynode *sp = hg_ymap_get(r, "special");
		if (sp && hg_ybool(sp, &res->special, d) != 0)
			rc = -1;
		if (bind_name(pool->res_names, id, ids, pool->nres, "resource",
			      res_id_of, pool, d) != 0 ||
		    bind_name(pool->res_names, nn ? nn : id, name, pool->nres,
			      "resource", res_id_of, pool, d) != 0) {
			rc = -1;
			continue;
		}
		const hg_ynode *al = hg_ymap_get(r, "aliases");
		if (al) {
			if (hg_ycheck_kind(al, HG_Y_SEQ, "a list of aliases", d) != 0)
				rc = -1;
			else
				for (size_t k = 0; k < al->n; k++) {
					const char *a;
					if (hg_yname(al->items[k], &a, d) != 0 ||
					    bind_name(pool->res_names, al->items[k], a,
						      pool->nres, "resource", res_id_of,
						      pool, d) != 0)
						rc = -1;
				}
		}
		res->id = hg_try_strdup(ids);
		res->name = hg_try_strdup(name);
		if (!res->id || !res->name) {	/* (the unit of work reports it) */
			free(res->id);
			free(res->name);
			return -1;
		}
		res->pos = r->pos;
		pool->nres++;
	}
	return rc;
}

/* {energia: 3, magia: 2}: an amount per resource type. */
static int load_amounts(const enc_pool *pool, const hg_ynode *map, int out[ENC_MAX_RES],
			int *ntypes, const char *what, hg_diags *d)
{
	memset(out, 0, sizeof(int) * ENC_MAX_RES);
	*ntypes = 0;
	if (hg_ycheck_kind(map, HG_Y_MAP, what, d) != 0)
		return -1;
	int rc = 0;
	for (size_t i = 0; i < hg_ymap_len(map); i++) {
		const hg_ynode *k = hg_ymap_key(map, i), *v = hg_ymap_value(map, i);
		const char *name;
		long amount;
		if (hg_ystr(k, &name, d) != 0 || hg_yint(v, 1, 999, &amount, d) != 0) {
			rc = -1;
			continue;
		}
		int r = enc_find_res(pool, name);
		if (r < 0) {
			hg_diag *dg = hg_diag_add(d, HG_ERROR, k->pos, "data.reference",
						  "unknown resource '%s' in %s", name, what);
			int v3[3];
			size_t ns = hg_names_suggest(pool->res_names, name, v3, 3);
			if (ns)
				hg_diag_note(dg, "did you mean '%s'?", pool->res[v3[0]].id);
			else if (pool->nres == 0)
				hg_diag_note(dg, "resource types are declared under 'resources:' before any card uses them");
			rc = -1;
			continue;
		}
		if (out[r] == 0)
			(*ntypes)++;
		out[r] = (int)amount;
	}
	return rc;
}

/* traits: [volador, marino] plus the invade and defence marks. */
static int load_marks(const hg_ynode *list, unsigned *marks, hg_diags *d)
{
	if (hg_ycheck_kind(list, HG_Y_SEQ, "a list of characteristics", d) != 0)
		return -1;
	int rc = 0;
	for (size_t i = 0; i < list->n; i++) {
		int w;
		if (hg_yword(list->items[i], mark_words, &w, d) != 0)
			rc = -1;
		else
			*marks |= 1u << w;
	}
	return rc;
}

int enc_load_marks(const hg_ynode *list, unsigned *marks, hg_diags *d)
{
	return load_marks(list, marks, d);
}

static int bind_card_names(enc_pool *pool, const hg_ynode *c, int index, hg_diags *d)
{
	enc_card *card = &pool->cards[index];
	int rc = 0;
	const hg_ynode *id = hg_ymap_get(c, "id"), *nm = hg_ymap_get(c, "name");
	if (bind_name(pool->card_names, id, card->id, index, "card", card_id_of, pool, d) != 0)
		rc = -1;
	if (enc_is_reserved_name(card->name)) {
		hg_diag_add(d, HG_ERROR, nm->pos, "data.range",
			    "card name '%s' would read as a stack, a number or a keyword of the notation",
			    card->name);
		rc = -1;
	} else if (bind_name(pool->card_names, nm, card->name, index, "card",
			     card_id_of, pool, d) != 0)
		rc = -1;
	const hg_ynode *al = hg_ymap_get(c, "aliases");
	for (size_t k = 0; al && k < card->naliases; k++) {
		if (enc_is_reserved_name(card->aliases[k])) {
			hg_diag_add(d, HG_ERROR, al->items[k]->pos, "data.range",
				    "alias '%s' would read as a stack, a number or a keyword of the notation",
				    card->aliases[k]);
			rc = -1;
		} else if (bind_name(pool->card_names, al->items[k], card->aliases[k],
				     index, "card", card_id_of, pool, d) != 0)
			rc = -1;
	}
	return rc;
}

/* The resources with a non-zero amount, in order. */
static void list_amounts(const int amount[ENC_MAX_RES], signed char *list, int *n)
{
	*n = 0;
	for (int r = 0; r < ENC_MAX_RES; r++)
		if (amount[r] != 0)
			list[(*n)++] = (signed char)r;
}

/* One card or tower (rule 2): see CARD FILES in the manual. */
static int load_card(enc_pool *pool, const hg_ynode *c, int civ, int tower, hg_diags *d)
{
	static const char *const card_keys[] = {
		"!id", "!name", "aliases", "!number", "!suit", "!value", "resources",
		"cost", "traits", "invade", "defence", "class", "effect", "text", NULL
	};
	static const char *const tower_keys[] = {
		"!id", "!name", "aliases", "number", "!suit", "resistance",
		"resources", "class", "effect", "text", NULL
	};
	const char *what = tower ? "a tower" : "a card";
	if (hg_ycheck_kind(c, HG_Y_MAP, what, d) != 0 ||
	    hg_ycheck_keys(c, tower ? tower_keys : card_keys, what, d) != 0)
		return -1;
	enc_card card;
	memset(&card, 0, sizeof card);
	card.civ = civ;
	card.tower = tower;
	card.pos = c->pos;
	int rc = 0;
	const char *s;
	const hg_ynode *n = hg_ymap_get(c, "id");
	if (hg_yname(n, &s, d) != 0 || check_id(n, tower ? "tower" : "card", d) != 0)
		return -1;
	/* Short of memory inside a unit of work (util.c), the card is left
	 * out, and the pool is dropped at the end. */
	card.id = hg_try_strdup(s);
	if (!card.id)
		return -1;
	n = hg_ymap_get(c, "name");
	if (hg_yname(n, &s, d) != 0)
		rc = -1;
	card.name = hg_try_strdup(rc == 0 ? s : card.id);
	if (!card.name)
		rc = -1;
	if ((n = hg_ymap_get(c, "aliases")) != NULL) {
		if (hg_ycheck_kind(n, HG_Y_SEQ, "a list of aliases", d) != 0) {
			rc = -1;
		} else {
			card.aliases = hg_try_calloc(n->n + 1, sizeof *card.aliases);
			for (size_t k = 0; card.aliases && k < n->n; k++) {
				if (hg_yname(n->items[k], &s, d) != 0) {
					s = card.id;
					rc = -1;
				}
				if (!(card.aliases[card.naliases] = hg_try_strdup(s)))
					break;
				card.naliases++;
			}
			if (hg_alloc_lost())
				rc = -1;
		}
	}
	long v;
	if ((n = hg_ymap_get(c, "number")) != NULL) {
		if (hg_yint(n, 0, 9999, &v, d) != 0)
			rc = -1;
		else
			card.number = (int)v;
	}
	int w;
	if (hg_yword(hg_ymap_get(c, "suit"), enc_suit_names, &w, d) != 0)
		rc = -1;
	else
		card.suit = (enc_suit)w;
	if (tower) {
		card.value = ENC_TOWER_RESISTANCE;
		if ((n = hg_ymap_get(c, "resistance")) != NULL) {
			if (hg_yint(n, 1, 999, &v, d) != 0)
				rc = -1;
			else
				card.value = (int)v;
		}
	} else if (hg_yint(hg_ymap_get(c, "value"), 0, 99, &v, d) != 0) {
		rc = -1;
	} else {
		card.value = (int)v;
	}
	int ntypes;
	if ((n = hg_ymap_get(c, "resources")) != NULL &&
	    load_amounts(pool, n, card.provides, &ntypes, "the resources a card provides", d) != 0)
		rc = -1;
	if ((n = hg_ymap_get(c, "cost")) != NULL) {
		if (load_amounts(pool, n, card.cost, &ntypes, "a cost", d) != 0) {
			rc = -1;
		} else if (ntypes > 2) {
			/* rule 2, Costo: "de 1 o 2 recursos distintos" */
			hg_diag_add(d, HG_ERROR, n->pos, "data.range",
				    "a cost names %d resource types; at most 2 (rule 2, Costo)",
				    ntypes);
			rc = -1;
		}
	}
	if ((n = hg_ymap_get(c, "traits")) != NULL && load_marks(n, &card.marks, d) != 0)
		rc = -1;
	int flag;
	if ((n = hg_ymap_get(c, "invade")) != NULL) {
		if (hg_ybool(n, &flag, d) != 0)
			rc = -1;
		else if (flag)
			card.marks |= ENC_MARK_INVADE;
	}
	if ((n = hg_ymap_get(c, "defence")) != NULL) {
		if (hg_ybool(n, &flag, d) != 0)
			rc = -1;
		else if (flag)
			card.marks |= ENC_MARK_DEFENCE;
	}
	if ((n = hg_ymap_get(c, "class")) != NULL) {
		if (hg_ystr(n, &s, d) != 0) {
			rc = -1;
		} else {
			if (!(card.klass = hg_try_strdup(s)))
				rc = -1;
			card.evento = hg_name_eq(s, "evento");
		}
	}
	if ((n = hg_ymap_get(c, "effect")) != NULL) {
		card.effect = enc_effect_parse(pool, n, d);
		if (!card.effect)
			rc = -1;
	}
	if (rc != 0 || HG_TRY_GROW(pool->cards, pool->capcards, pool->ncards + 1) != 0) {
		card_free(&card);
		return -1;
	}
	list_amounts(card.provides, card.provides_list, &card.nprovides);
	list_amounts(card.cost, card.cost_list, &card.ncost);
	for (int j = 0; j < 2; j++) {
		card.cost_res[j] = j < card.ncost ? card.cost_list[j] : 0;
		card.cost_amount[j] = j < card.ncost ? card.cost[card.cost_list[j]] : INT_MIN;
	}
	card.shielded = civ >= 0 && pool->civs[civ].shielded;
	int index = (int)pool->ncards;
	pool->cards[pool->ncards++] = card;
	if (bind_card_names(pool, c, index, d) != 0)
		return -1;
	return 0;
}

/* civilisation: {id, name, shielded} then its cards. */
static int load_civ(enc_pool *pool, const hg_ynode *m, hg_diags *d)
{
	static const char *const keys[] = { "!id", "!name", "shielded", "aliases", NULL };
	if (hg_ycheck_kind(m, HG_Y_MAP, "a civilisation", d) != 0 ||
	    hg_ycheck_keys(m, keys, "a civilisation", d) != 0)
		return -1;
	const hg_ynode *id = hg_ymap_get(m, "id"), *nm = hg_ymap_get(m, "name");
	const char *ids, *name;
	if (hg_yname(id, &ids, d) != 0 || check_id(id, "civilisation", d) != 0 ||
	    hg_yname(nm, &name, d) != 0)
		return -1;
	int shielded = 0;
	const hg_ynode *sh = hg_ymap_get(m, "shielded");
	if (sh && hg_ybool(sh, &shielded, d) != 0)
		return -1;
	if (HG_TRY_GROW(pool->civs, pool->capciv, pool->nciv + 1) != 0)
		return -1;	/* (the unit of work reports it) */
	int index = (int)pool->nciv;
	if (bind_name(pool->civ_names, id, ids, index, "civilisation", civ_id_of, pool, d) != 0 ||
	    bind_name(pool->civ_names, nm, name, index, "civilisation", civ_id_of, pool, d) != 0)
		return -1;
	enc_civ *civ = &pool->civs[pool->nciv++];
	civ->id = hg_try_strdup(ids);
	civ->name = hg_try_strdup(name);
	if (!civ->id || !civ->name)
		return -1;
	civ->shielded = shielded;
	civ->pos = m->pos;
	return index;
}

/* Collector numbers count within a civilisation (rule 2, "partes no usadas").
 * The numbered cards sorted by civilisation, number and place in the pool:
 * each card from `first` on that is not the first of its run repeats that
 * one (in time linear but for the sort, whatever a card file holds). */
typedef struct numbered {
	int civ, number;
	size_t index;
} numbered;

static int numbered_cmp(const void *a, const void *b)
{
	const numbered *x = a, *y = b;
	if (x->civ != y->civ)
		return x->civ < y->civ ? -1 : 1;
	if (x->number != y->number)
		return x->number < y->number ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

typedef struct repeat {
	size_t at, first;
} repeat;

static int repeat_cmp(const void *a, const void *b)
{
	const repeat *x = a, *y = b;
	return x->at < y->at ? -1 : x->at > y->at;
}

static int check_numbers(const enc_pool *pool, size_t first, hg_diags *d)
{
	numbered *v = hg_try_calloc(pool->ncards + 1, sizeof *v);
	if (!v)
		return -1;	/* (the unit of work reports it) */
	size_t n = 0;
	for (size_t i = 0; i < pool->ncards; i++) {
		const enc_card *c = &pool->cards[i];
		if (!c->tower && c->number != 0)
			v[n++] = (numbered){ c->civ, c->number, i };
	}
	qsort(v, n, sizeof *v, numbered_cmp);
	repeat *r = hg_try_calloc(n + 1, sizeof *r);
	if (!r) {
		free(v);
		return -1;
	}
	size_t nr = 0;
	for (size_t i = 1, run = 0; i < n; i++) {
		if (v[i].civ != v[run].civ || v[i].number != v[run].number)
			run = i;
		else if (v[i].index >= first)
			r[nr++] = (repeat){ v[i].index, v[run].index };
	}
	qsort(r, nr, sizeof *r, repeat_cmp);
	for (size_t i = 0; i < nr; i++) {
		const enc_card *a = &pool->cards[r[i].at], *b = &pool->cards[r[i].first];
		hg_diag *dg = hg_diag_add(d, HG_ERROR, a->pos, "data.duplicate-id",
					  "collector number %d of '%s' is also that of '%s'",
					  a->number, a->id, b->id);
		hg_diag_note(dg, "each civilisation numbers its cards once (rule 2)");
	}
	free(v);
	free(r);
	return nr ? -1 : 0;
}

const char *const enc_card_file_keys[] = {
	"reconstructed", "source", "resources", "civilisation", "cards", "towers", NULL
};

int enc_pool_load_file(enc_pool *pool, const char *path, hg_diags *d)
{
	return enc_pool_load_doc(pool, hg_yaml_load_file(path, d), d);
}

int enc_pool_load_doc(enc_pool *pool, hg_ydoc *doc, hg_diags *d)
{
	static const char *const *const keys = enc_card_file_keys;
	if (!doc)
		return -1;
	char *file = HG_TRY_GROW(pool->files, pool->capfiles, pool->nfiles + 1) == 0 ?
		hg_try_strdup(doc->file) : NULL;
	if (!file) {
		hg_ydoc_free(doc);
		return -1;	/* (the unit of work reports it) */
	}
	pool->files[pool->nfiles++] = file;
	int rc = 0;
	const hg_ynode *root = doc->root;
	if (!root) {
		hg_pos pos = { doc->file, 1, 1 };
		hg_diag_add(d, HG_ERROR, pos, "data.type", "the card file is empty");
		hg_ydoc_free(doc);
		return -1;
	}
	if (hg_ycheck_kind(root, HG_Y_MAP, "a card file", d) != 0 ||
	    hg_ycheck_keys(root, keys, "a card file", d) != 0 ||
	    hg_provs_collect(&pool->provs, doc, d) != 0) {
		hg_ydoc_free(doc);
		return -1;
	}
	const hg_ynode *n;
	int flag;
	if ((n = hg_ymap_get(root, "reconstructed")) != NULL && hg_ybool(n, &flag, d) != 0)
		rc = -1;
	const char *s;
	if ((n = hg_ymap_get(root, "source")) != NULL && hg_ystr(n, &s, d) != 0)
		rc = -1;
	if ((n = hg_ymap_get(root, "resources")) != NULL && load_resources(pool, n, d) != 0)
		rc = -1;
	int civ = -1;
	if ((n = hg_ymap_get(root, "civilisation")) != NULL && (civ = load_civ(pool, n, d)) < 0)
		rc = -1;
	size_t first = pool->ncards;
	if ((n = hg_ymap_get(root, "cards")) != NULL) {
		if (!hg_ymap_get(root, "civilisation")) {
			hg_diag_add(d, HG_ERROR, n->pos, "data.missing-key",
				    "cards belong to a civilisation: the file needs a 'civilisation' key");
			rc = -1;
		} else if (hg_ycheck_kind(n, HG_Y_SEQ, "the list of cards", d) != 0) {
			rc = -1;
		} else if (civ >= 0) {
			for (size_t i = 0; i < n->n; i++)
				if (load_card(pool, n->items[i], civ, 0, d) != 0)
					rc = -1;
		}
	}
	if ((n = hg_ymap_get(root, "towers")) != NULL) {
		if (hg_ycheck_kind(n, HG_Y_SEQ, "the list of towers", d) != 0)
			rc = -1;
		else
			for (size_t i = 0; i < n->n; i++)
				if (load_card(pool, n->items[i], civ, 1, d) != 0)
					rc = -1;
	}
	if (check_numbers(pool, first, d) != 0)
		rc = -1;
	hg_ydoc_free(doc);
	return hg_alloc_lost() ? -1 : rc;
}

int enc_pool_finish(enc_pool *pool, hg_pos where, hg_diags *d)
{
	int towers = 0, cards = 0;
	for (size_t i = 0; i < pool->ncards; i++) {
		if (pool->cards[i].tower)
			towers++;
		else
			cards++;
	}
	if (towers == 0 || cards == 0) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, where, "data.missing-key",
					  "the card pool holds %d cards and %d towers; a game needs both",
					  cards, towers);
		for (size_t i = 0; i < pool->nfiles; i++)
			hg_diag_note(dg, "read '%s'", pool->files[i]);
		return -1;
	}
	index_ids(pool);
	return 0;
}

int enc_pool_load_bundled(enc_pool *pool, const hg_datapath *path, hg_diags *d)
{
	int rc = 0;
	hg_pos nowhere = { NULL, 0, 0 };
	for (size_t i = 0; enc_bundled_card_files[i]; i++) {
		char *file = hg_datapath_find(path, enc_bundled_card_files[i]);
		if (!file) {
			hg_diag *dg = hg_diag_add(d, HG_ERROR, nowhere, "enc.missing-data",
						  "cannot find the data file '%s'",
						  enc_bundled_card_files[i]);
			for (size_t k = 0; k < path->n; k++)
				hg_diag_note(dg, "looked in '%s'", path->dirs[k]);
			rc = -1;
			continue;
		}
		if (enc_pool_load_file(pool, file, d) != 0)
			rc = -1;
		free(file);
	}
	if (rc == 0)
		rc = enc_pool_finish(pool, nowhere, d);
	return rc;
}
