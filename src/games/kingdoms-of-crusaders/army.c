/* army.c - squads, the comparison of armies, and the proof that no better
 * army can still be gathered ('Armies and domination in territories').
 *
 * An army is judged by how many of its four cards show each kind of symbol.
 * Everything the rule sheet compares (regiments, then battalions, then
 * companies, by number and then by power, then the single symbols) folds
 * into one integer key, so comparing armies is comparing integers. */
#include "config.h"

#include <string.h>

#include "koc.h"

const char *const hg_koc_kind_names[KOC_NKINDS + 1] = {
	"lance", "bow", "swords", "helmet", "banner", NULL
};

/* Bit layout of a key, most significant first (ruling 5):
 *   28..26 regiments   25..21 their kinds
 *   20..18 battalions  17..13 their kinds
 *   12..10 companies    9..5  their kinds
 *                       4..0  the kinds shown exactly once
 * A set of kinds as a 5-bit number (bit k = kind k, banner highest)
 * compares exactly as the rule does: strongest squad first, then the next.
 * Of two sets of equal size, the one holding the strongest kind the other
 * lacks is the larger number. */
#define SHIFT_NREG 26
#define SHIFT_REG 21
#define SHIFT_NBAT 18
#define SHIFT_BAT 13
#define SHIFT_NCOM 10
#define SHIFT_COM 5
#define SHIFT_ONE 0

static unsigned popcount5(unsigned m)
{
	unsigned n = 0;
	for (; m; m &= m - 1)
		n++;
	return n;
}

void hg_koc_count(const unsigned char *masks, size_t n, unsigned char counts[KOC_NKINDS])
{
	memset(counts, 0, KOC_NKINDS);
	for (size_t i = 0; i < n; i++)
		for (unsigned k = 0; k < KOC_NKINDS; k++)
			counts[k] += (masks[i] >> k) & 1u;
}

/* 'Armies and domination': the symbols of one kind form a squad, two a
 * company, three a battalion, four a regiment (ruling 4).  Each kind adds
 * to the key on its own: one more squad of its size in that size's count
 * (at most five kinds: the three bits of a count never overflow) and its
 * bit in that size's kinds; a single symbol only its bit.  So the key is a
 * sum over the kinds, with no set to build or count. */
static const hg_koc_key squad_one[KOC_ARMY + 1] = {
	0, 0, (hg_koc_key)1 << SHIFT_NCOM, (hg_koc_key)1 << SHIFT_NBAT, (hg_koc_key)1 << SHIFT_NREG
};
/* kind 0's bit in the kinds of each size; kind k's is this << k */
static const hg_koc_key squad_kind0[KOC_ARMY + 1] = {
	0, (hg_koc_key)1 << SHIFT_ONE, (hg_koc_key)1 << SHIFT_COM, (hg_koc_key)1 << SHIFT_BAT,
	(hg_koc_key)1 << SHIFT_REG
};

hg_koc_key hg_koc_key_of(const unsigned char counts[KOC_NKINDS])
{
	hg_koc_key key = 0;
	for (unsigned k = 0; k < KOC_NKINDS; k++) {
		unsigned c = counts[k] > KOC_ARMY ? KOC_ARMY : counts[k];
		key += squad_one[c] + (squad_kind0[c] << k);
	}
	return key;
}

hg_koc_key hg_koc_army_key(const unsigned char *masks, size_t n)
{
	unsigned char counts[KOC_NKINDS];
	hg_koc_count(masks, n, counts);
	return hg_koc_key_of(counts);
}

unsigned hg_koc_key_kinds(hg_koc_key k, unsigned size)
{
	switch (size) {
	case 4:
		return (k >> SHIFT_REG) & 31u;
	case 3:
		return (k >> SHIFT_BAT) & 31u;
	case 2:
		return (k >> SHIFT_COM) & 31u;
	case 1:
		return (k >> SHIFT_ONE) & 31u;
	default:
		return 0;
	}
}

/* Ruling 5, last step: all alike, the army completed first wins. */
int hg_koc_army_cmp(hg_koc_key a, unsigned first_a, hg_koc_key b, unsigned first_b)
{
	if (a != b)
		return a > b ? 1 : -1;
	if (first_a != first_b)
		return first_a < first_b ? 1 : -1;
	return 0;
}

int hg_koc_key_level(hg_koc_key a, hg_koc_key b)
{
	hg_koc_key x = a ^ b;
	if (!x)
		return 0;
	int bit = 31;
	while (!((x >> bit) & 1u))
		bit--;
	if (bit >= SHIFT_NREG)
		return 1;
	if (bit >= SHIFT_REG)
		return 2;
	if (bit >= SHIFT_NBAT)
		return 3;
	if (bit >= SHIFT_BAT)
		return 4;
	if (bit >= SHIFT_NCOM)
		return 5;
	if (bit >= SHIFT_COM)
		return 6;
	return 7;
}

/* Kinds strongest first: "banner, lance". */
static void kinds_describe(unsigned mask, const char *sep, hg_buf *out)
{
	int first = 1;
	for (int k = KOC_NKINDS - 1; k >= 0; k--)
		if ((mask >> k) & 1u) {
			hg_buf_printf(out, "%s%s", first ? "" : sep, hg_koc_kind_names[k]);
			first = 0;
		}
}

void hg_koc_mask_describe(unsigned mask, hg_buf *out)
{
	/* A card prints its symbols left to right by power ('Unit Cards'):
	 * weakest first. */
	int first = 1;
	for (unsigned k = 0; k < KOC_NKINDS; k++)
		if ((mask >> k) & 1u) {
			hg_buf_printf(out, "%s%s", first ? "" : " ", hg_koc_kind_names[k]);
			first = 0;
		}
}

void hg_koc_key_describe(hg_koc_key k, hg_buf *out)
{
	static const char *const one[] = { NULL, "single", "company", "battalion", "regiment" };
	static const char *const many[] = { NULL, "singles", "companies", "battalions", "regiments" };
	int any = 0;
	for (unsigned size = 4; size >= 1; size--) {
		unsigned m = hg_koc_key_kinds(k, size);
		if (!m)
			continue;
		hg_buf_printf(out, "%s%s ", any ? "; " : "",
			      popcount5(m) == 1 ? one[size] : many[size]);
		kinds_describe(m, ", ", out);
		any = 1;
	}
	if (!any)
		hg_buf_puts(out, "no symbols");
}

/* ------------------------------------------------------------------------
 * The proof of an early win (ruling 6).  A search over the multisets of the
 * `need` cards still to come, type by type, with a bound: the key only
 * grows when a kind's count grows (a single becomes a company, a company a
 * battalion, ...; each step raises a more significant field), so no
 * completion beats the key of the counts where every kind gains as many
 * cards as it could: `need`, or fewer when fewer cards showing that kind
 * are left among the types not yet decided.  When even that does not beat
 * the target, nothing below this point of the search does.
 * ------------------------------------------------------------------------ */
typedef struct beat_search {
	unsigned ntypes;
	unsigned char type[KOC_NTYPES];		/* types on offer, richest first */
	uint16_t avail[KOC_NTYPES];
	/* cards showing kind k among the types from i on */
	uint16_t offer[KOC_NTYPES + 1][KOC_NKINDS];
	unsigned char cap[KOC_NKINDS];		/* the most a kind may reach */
	hg_koc_key target;
} beat_search;

static hg_koc_key optimistic_key(const beat_search *bs, unsigned i,
				 const unsigned char counts[KOC_NKINDS], unsigned need)
{
	unsigned char opt[KOC_NKINDS];
	for (unsigned k = 0; k < KOC_NKINDS; k++) {
		unsigned more = bs->offer[i][k] < need ? bs->offer[i][k] : need;
		unsigned c = counts[k] + more;
		opt[k] = (unsigned char)(c > bs->cap[k] ? bs->cap[k] : c);
	}
	return hg_koc_key_of(opt);
}

/* The cards a success took: took[i] of the i-th type on offer, for the
 * first `depth` types (the rest took none). */
typedef struct beat_path {
	unsigned char took[KOC_NTYPES];
	unsigned depth;
} beat_path;

static int beat_from(const beat_search *bs, unsigned i, unsigned need,
		     unsigned char counts[KOC_NKINDS], beat_path *path)
{
	if (need == 0) {
		if (hg_koc_key_of(counts) <= bs->target)
			return 0;
		path->depth = i;
		return 1;
	}
	if (i == bs->ntypes)
		return 0;
	if (optimistic_key(bs, i, counts, need) <= bs->target)
		return 0;
	unsigned mask = bs->type[i];
	unsigned most = bs->avail[i] < need ? bs->avail[i] : need;
	/* Take as many of the richest type as possible first: a success, if
	 * there is one, tends to come early. */
	for (unsigned take = most + 1; take-- > 0;) {
		for (unsigned k = 0; k < KOC_NKINDS; k++)
			if ((mask >> k) & 1u)
				counts[k] = (unsigned char)(counts[k] + take);
		path->took[i] = (unsigned char)take;
		int found = beat_from(bs, i + 1, need - take, counts, path);
		for (unsigned k = 0; k < KOC_NKINDS; k++)
			if ((mask >> k) & 1u)
				counts[k] = (unsigned char)(counts[k] - take);
		if (found)
			return 1;
	}
	return 0;
}

/* The regiments field of a key (their number, then their kinds): a set of
 * kinds as it would rank as the army's regiments. */
static unsigned regiment_field(unsigned kinds)
{
	return popcount5(kinds) << KOC_NKINDS | kinds;
}

/* Could the kinds `set` all become regiments?  A necessary condition: a
 * kind that needs every one of the `need` cards to show it forces every
 * card to be of a type showing it; each other kind of the set needs that
 * many cards of such types showing it too. */
static int regiments_possible(const unsigned char *type, const uint16_t *avail, unsigned ntypes,
			      const unsigned char counts[KOC_NKINDS], unsigned need, unsigned set)
{
	unsigned every = 0;
	for (unsigned k = 0; k < KOC_NKINDS; k++) {
		if (!((set >> k) & 1u))
			continue;
		unsigned missing = KOC_ARMY - counts[k];
		if (missing > need)
			return 0;
		if (missing == need)
			every |= 1u << k;
	}
	unsigned cards = 0, showing[KOC_NKINDS] = { 0 };
	for (unsigned i = 0; i < ntypes; i++) {
		if ((type[i] & every) != every)
			continue;
		cards += avail[i];
		for (unsigned k = 0; k < KOC_NKINDS; k++)
			if ((type[i] >> k) & 1u)
				showing[k] += avail[i];
	}
	if (cards < need)
		return 0;
	for (unsigned k = 0; k < KOC_NKINDS; k++)
		if (((set >> k) & 1u) && showing[k] < (unsigned)(KOC_ARMY - counts[k]))
			return 0;
	return 1;
}

/* The sets of kinds by the rank they would have as an army's regiments:
 * more kinds first, then by power.  Also the card types, richest first. */
static const unsigned char by_rank[KOC_NTYPES] = {
	31, 30, 29, 27, 23, 15, 28, 26, 25, 22, 21, 19, 14, 13, 11, 7,
	24, 20, 18, 17, 12, 10, 9, 6, 5, 3, 16, 8, 4, 2, 1, 0
};

int hg_koc_can_beat(const unsigned char counts[KOC_NKINDS], unsigned need,
		    const uint16_t pool[KOC_NTYPES], hg_koc_key target)
{
	return hg_koc_can_beat_with(counts, need, pool, target, NULL);
}

/* A quick proof before the search: the `need` cards of the richest types
 * the pool holds (the first army the search itself would try without a
 * target).  Where that army beats the target, the answer is yes and the
 * search needs no setting up; where not, the search decides.  Most
 * placements ask about a territory someone can still contest, and this
 * army usually shows it. */
static int richest_beats(const unsigned char counts[KOC_NKINDS], unsigned need,
			 const uint16_t pool[KOC_NTYPES], hg_koc_key target, hg_koc_proof *proof)
{
	unsigned char c[KOC_NKINDS];
	memcpy(c, counts, sizeof c);
	proof->ntypes = 0;
	for (unsigned r = 0; need > 0 && r + 1 < KOC_NTYPES; r++) {
		unsigned type = by_rank[r];
		unsigned take = pool[type] < need ? pool[type] : need;
		if (!take)
			continue;
		for (unsigned k = 0; k < KOC_NKINDS; k++)
			if ((type >> k) & 1u)
				c[k] = (unsigned char)(c[k] + take);
		proof->type[proof->ntypes] = (unsigned char)type;
		proof->take[proof->ntypes++] = (unsigned char)take;
		need -= take;
	}
	return need == 0 && hg_koc_key_of(c) > target;
}

int hg_koc_can_beat_with(const unsigned char counts[KOC_NKINDS], unsigned need,
			 const uint16_t pool[KOC_NTYPES], hg_koc_key target,
			 hg_koc_proof *proof)
{
	hg_koc_proof quick;
	if (!proof)
		proof = &quick;
	proof->ntypes = 0;
	if (need == 0)
		return hg_koc_key_of(counts) > target;
	if (richest_beats(counts, need, pool, target, proof))
		return 1;
	proof->ntypes = 0;
	unsigned char c[KOC_NKINDS];
	memcpy(c, counts, sizeof c);
	unsigned char type[KOC_NTYPES];
	uint16_t avail[KOC_NTYPES];
	unsigned ntypes = 0;
	/* Richest types first (by_rank without the empty set). */
	for (unsigned r = 0; r + 1 < KOC_NTYPES; r++)
		if (pool[by_rank[r]]) {
			type[ntypes] = by_rank[r];
			avail[ntypes] = pool[by_rank[r]];
			ntypes++;
		}

	/* The regiments decide first.  Against a target with regiments, find
	 * the best set of regiments the cards could possibly make: if it ranks
	 * below the target's, nothing beats the target; if it is the target's
	 * own set, a better army must have exactly those regiments, so every
	 * card is of a type showing the kinds that need every card, and no
	 * other kind reaches four. */
	beat_search bs;
	bs.target = target;
	memset(bs.cap, KOC_ARMY, sizeof bs.cap);
	unsigned every = 0;
	unsigned target_regiments = target >> SHIFT_REG;
	if (target_regiments) {
		unsigned best = 0;
		for (unsigned r = 0; r < KOC_NTYPES; r++) {
			unsigned set = by_rank[r];
			if (regiment_field(set) < target_regiments)
				return 0;
			if (regiments_possible(type, avail, ntypes, c, need, set)) {
				best = set;
				break;
			}
		}
		if (regiment_field(best) == target_regiments)
			for (unsigned k = 0; k < KOC_NKINDS; k++) {
				if (!((best >> k) & 1u))
					bs.cap[k] = KOC_ARMY - 1;
				else if ((unsigned)(KOC_ARMY - c[k]) == need)
					every |= 1u << k;
			}
	}
	bs.ntypes = 0;
	for (unsigned i = 0; i < ntypes; i++)
		if ((type[i] & every) == every) {
			bs.type[bs.ntypes] = type[i];
			bs.avail[bs.ntypes] = avail[i];
			bs.ntypes++;
		}
	memset(bs.offer[bs.ntypes], 0, sizeof bs.offer[bs.ntypes]);
	for (unsigned i = bs.ntypes; i-- > 0;)
		for (unsigned k = 0; k < KOC_NKINDS; k++)
			bs.offer[i][k] = (uint16_t)(bs.offer[i + 1][k] +
						    (((bs.type[i] >> k) & 1u) ? bs.avail[i] : 0));
	beat_path path;
	if (!beat_from(&bs, 0, need, c, &path))
		return 0;
	for (unsigned i = 0; i < path.depth; i++)
		if (path.took[i]) {
			proof->type[proof->ntypes] = bs.type[i];
			proof->take[proof->ntypes++] = path.took[i];
		}
	return 1;
}
