/* notation.c - Crusader Kingdoms: the action syntax (grammar/crusader-
 * kingdoms.ebnf): PCRE2 patterns over the action's text (its tokens joined
 * by single spaces), names resolved against the set-up (seats, map, decks)
 * and never the position, and the canonical spelling written back.
 *
 *   draw [N] ITEM...                         rule 3, step 1
 *   attack AREA [from AREA] [with CARD...] {& SEAT CARD SIDE}
 *          [turn AREA...] / ROLL vs ROLL / (won (bonus | castle AREA) | lost)
 *   incursion SEAT with ITEM [/ DIE] [discards ITEM...]
 *   play CARD [on SEAT] [at AREA] [draws ITEM...] [takes ITEM...]
 *        [discards ITEM...] [castle AREA] [attack ...]
 *   discard ITEM
 *   pass [end]
 *   reveal CARD [on SEAT] [at AREA] [takes ITEM...] [discards ITEM...]
 *          [castle AREA] [army | response | discarded]
 *          [/ (DIE | ?) [attack ...]]             rule 8.3 (a scripted side)
 * where ROLL is DIE... or '?', then [mod DIE>DIE...] and [= HITS].
 */
#include "config.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "ck.h"

/* A name: one word token.  An item: a name or '?'.  Lists stop at the
 * syntax's keywords (data.c keeps them out of names). */
#define NAME "[^ ,/+=><@&|~^%?]+"
#define ITEM "(?:" NAME "|\\?)"
/* Every keyword in English or in Spanish, as Encrucijada's players write
 * (herald-crusader-kingdoms(7), SPANISH KEYWORDS); the patterns match
 * without regard to case, and the accented letters are spelled both
 * ways.  The writer writes the English ones. */
#define K_DRAW "(?:draw|robar)"
#define K_PASS "(?:pass|pasar)"
#define K_END "(?:end|fin)"
#define K_DISCARD "(?:discard|descartar)"
#define K_INCURSION "incursi[o\u00f3]n"
#define K_PLAY "(?:play|jugar)"
#define K_REVEAL "(?:reveal|revelar)"
#define K_ATTACK "(?:attack|atacar)"
#define K_ON "(?:on|sobre)"
#define K_AT "(?:at|en)"
#define K_DRAWS "(?:draws|roba)"
#define K_TAKES "(?:takes|toma)"
#define K_DISCARDS "(?:discards|descarta)"
#define K_CASTLE "(?:castle|castillo)"
#define K_FROM "(?:from|desde)"
#define K_WITH "(?:with|con)"
#define K_TURN "(?:turn|gira)"
#define K_VS "(?:vs|contra)"
#define K_WON "(?:won|gana)"
#define K_LOST "(?:lost|pierde)"
#define K_PLACE "(?:army|ej[e\u00e9]rcito|response|respuesta|discarded|descartada)"
#define KW "(?:on|at|draws|takes|discards|castle|attack|from|with|turn|vs|mod|end|army|response|discarded" \
	"|sobre|en|roba|toma|descarta|castillo|ataque|atacar|desde|con|gira|contra|fin" \
	"|ej[e\u00e9]rcito|respuesta|descartada)"
#define LITEM "(?!" KW "(?: |$))" ITEM
#define LIST LITEM "(?: " LITEM ")*"
/* castle AREA...: the castles a gain past +2 turns, one per step */
#define CASTLES NAME "(?: (?!" KW "(?: |$))" NAME ")*"
#define ROLL "(?:\\?|\\d+(?: \\d+)*)(?: mod \\d+ > \\d+(?: \\d+ > \\d+)*)?(?: = \\d+)?"

int ck_patterns_compile(ck_patterns *p)
{
	p->draw = hg_pattern_new(K_DRAW "(?: (?<count>\\d+))?(?: (?<items>" LIST "))?");
	p->pass = hg_pattern_new(K_PASS "(?<end> " K_END ")?");
	p->discard = hg_pattern_new(K_DISCARD " (?<item>" ITEM ")");
	p->incursion = hg_pattern_new(
		K_INCURSION " (?<target>" NAME ") " K_WITH " (?<card>" ITEM ")"
		"(?: / (?<die>\\d+|\\?))?(?: " K_DISCARDS " (?<items>" LIST "))?");
	p->play = hg_pattern_new(
		K_PLAY " (?<card>" NAME ")(?: " K_ON " (?<on>" NAME "))?(?: " K_AT " (?<at>" NAME "))?"
		"(?: " K_DRAWS " (?<draws>" LIST "))?(?: " K_TAKES " (?<takes>" LIST "))?"
		"(?: " K_DISCARDS " (?<discards>" LIST "))?(?: " K_CASTLE " (?<castle>" CASTLES "))?"
		"(?: (?<attack>" K_ATTACK " .*))?");
	p->attack = hg_pattern_new(
		K_ATTACK " (?<target>" NAME ")(?: " K_FROM " (?<from>" NAME "))?"
		"(?: " K_WITH " (?<with>" LIST "))?"
		"(?<resp>(?: & " NAME " " NAME " " NAME ")*)"
		"(?: " K_TURN " (?<turn>" LIST "))?"
		" / (?<aroll>" ROLL ") " K_VS " (?<droll>" ROLL ")"
		" / (?<outcome>" K_WON "|" K_LOST ")(?: (?<choice>bonus|" K_CASTLE ")(?: (?<castle>" NAME "))?)?");
	p->reveal = hg_pattern_new(
		K_REVEAL " (?<card>" ITEM ")(?: " K_ON " (?<on>" NAME "))?(?: " K_AT " (?<at>" NAME "))?"
		"(?: " K_TAKES " (?<takes>" LIST "))?(?: " K_DISCARDS " (?<discards>" LIST "))?"
		"(?: " K_CASTLE " (?<castle>" CASTLES "))?(?: (?<place>" K_PLACE "))?"
		"(?: / (?<die>\\d+|\\?)(?: (?<attack>" K_ATTACK " .*))?)?");
	p->roll = hg_pattern_new(
		"(?<dice>\\?|\\d+(?: \\d+)*)(?: mod (?<mods>\\d+ > \\d+(?: \\d+ > \\d+)*))?"
		"(?: = (?<hits>\\d+))?");
	/* Looked up once here, not by name for every action. */
	ck_groups *g = &p->g;
	g->draw_count = hg_pattern_group(p->draw, "count");
	g->draw_items = hg_pattern_group(p->draw, "items");
	g->pass_end = hg_pattern_group(p->pass, "end");
	g->discard_item = hg_pattern_group(p->discard, "item");
	g->inc_target = hg_pattern_group(p->incursion, "target");
	g->inc_card = hg_pattern_group(p->incursion, "card");
	g->inc_die = hg_pattern_group(p->incursion, "die");
	g->inc_items = hg_pattern_group(p->incursion, "items");
	g->play_card = hg_pattern_group(p->play, "card");
	g->play_on = hg_pattern_group(p->play, "on");
	g->play_at = hg_pattern_group(p->play, "at");
	g->play_draws = hg_pattern_group(p->play, "draws");
	g->play_takes = hg_pattern_group(p->play, "takes");
	g->play_discards = hg_pattern_group(p->play, "discards");
	g->play_castle = hg_pattern_group(p->play, "castle");
	g->play_attack = hg_pattern_group(p->play, "attack");
	g->att_target = hg_pattern_group(p->attack, "target");
	g->att_from = hg_pattern_group(p->attack, "from");
	g->att_with = hg_pattern_group(p->attack, "with");
	g->att_resp = hg_pattern_group(p->attack, "resp");
	g->att_turn = hg_pattern_group(p->attack, "turn");
	g->att_aroll = hg_pattern_group(p->attack, "aroll");
	g->att_droll = hg_pattern_group(p->attack, "droll");
	g->att_outcome = hg_pattern_group(p->attack, "outcome");
	g->att_choice = hg_pattern_group(p->attack, "choice");
	g->att_castle = hg_pattern_group(p->attack, "castle");
	g->rev_card = hg_pattern_group(p->reveal, "card");
	g->rev_on = hg_pattern_group(p->reveal, "on");
	g->rev_at = hg_pattern_group(p->reveal, "at");
	g->rev_takes = hg_pattern_group(p->reveal, "takes");
	g->rev_discards = hg_pattern_group(p->reveal, "discards");
	g->rev_castle = hg_pattern_group(p->reveal, "castle");
	g->rev_place = hg_pattern_group(p->reveal, "place");
	g->rev_die = hg_pattern_group(p->reveal, "die");
	g->rev_attack = hg_pattern_group(p->reveal, "attack");
	g->roll_dice = hg_pattern_group(p->roll, "dice");
	g->roll_mods = hg_pattern_group(p->roll, "mods");
	g->roll_hits = hg_pattern_group(p->roll, "hits");
	return 0;
}

void ck_patterns_free(ck_patterns *p)
{
	hg_pattern_free(p->draw);
	hg_pattern_free(p->pass);
	hg_pattern_free(p->discard);
	hg_pattern_free(p->incursion);
	hg_pattern_free(p->play);
	hg_pattern_free(p->attack);
	hg_pattern_free(p->roll);
	hg_pattern_free(p->reveal);
	memset(p, 0, sizeof *p);
}

/* ------------------------------------------------------------ parsing */
typedef struct parser {
	const hg_state *s;
	const hg_action_text *t;
	hg_diags *d;
	int seat;		/* whose cards plain names mean */
	int failed;
	size_t tok;		/* the token pos_at found last */
} parser;

/* hg_action_text_pos, which is asked for every item and die: the token
 * offsets grow along the text, so the token covering `off` is the last
 * one starting at or before it (the first token when none does).  The
 * parser reads from left to right: the search goes on from the token
 * found last, or bisects when `off` lies before it. */
static hg_pos pos_at(parser *p, size_t off)
{
	const hg_action_text *t = p->t;
	if (t->ntoks == 0)
		return t->pos;
	size_t i = p->tok;
	if (i >= t->ntoks || (i > 0 && t->toks[i].off > off)) {
		size_t lo = 0, hi = t->ntoks - 1;
		while (lo < hi) {
			size_t mid = lo + (hi - lo + 1) / 2;
			if (t->toks[mid].off <= off)
				lo = mid;
			else
				hi = mid - 1;
		}
		i = lo;
	} else {
		while (i + 1 < t->ntoks && t->toks[i + 1].off <= off)
			i++;
	}
	p->tok = i;
	return t->toks[i].pos;
}

/* Space-separated tokens in text[start, end). */
static size_t count_tokens(const char *text, size_t start, size_t end)
{
	size_t n = 1;
	for (size_t i = start; i < end; i++)
		n += text[i] == ' ';
	return n;
}

/* Room for a list of n written elements: the parsers stop with ck.too-many
 * before the CK_MAX_LIST + 1st. */
static size_t list_room(size_t n)
{
	return n < CK_MAX_LIST ? n : CK_MAX_LIST;
}

/* Calls f on each space-separated token of text[start, end). */
typedef int (*token_fn)(parser *p, const char *tok, size_t off, void *ctx);

static int each_token(parser *p, const char *text, size_t start, size_t end, token_fn f,
		      void *ctx)
{
	size_t i = start;
	char buf[256];
	while (i < end) {
		size_t j = i;
		while (j < end && text[j] != ' ')
			j++;
		size_t n = j - i < sizeof buf - 1 ? j - i : sizeof buf - 1;
		memcpy(buf, text + i, n);
		buf[n] = '\0';
		if (f(p, buf, i, ctx) != 0)
			return -1;
		i = j + 1;
	}
	return 0;
}

static void suggest(hg_diag *dg, const hg_names *t, const char *name,
		    const char *(*id)(const parser *, int), const parser *p)
{
	int v[3];
	size_t n = hg_names_suggest(t, name, v, 3);
	if (n == 0)
		return;
	hg_buf b;
	hg_buf_init(&b);
	for (size_t i = 0; i < n; i++)
		hg_buf_printf(&b, "%s'%s'", i ? (i + 1 == n ? " or " : ", ") : "", id(p, v[i]));
	hg_diag_note(dg, "did you mean %s?", b.data);
	hg_buf_free(&b);
}

static const char *area_id(const parser *p, int a)
{
	return p->s->map->areas[a].id;
}

static const char *seat_id(const parser *p, int f)
{
	return p->s->sc->factions[f].id;
}

static const char *card_id_own(const parser *p, int c)
{
	return p->s->data->decks[p->s->sc->factions[p->seat].religion].cards[c].id;
}

static int resolve_area(parser *p, const char *name, size_t off)
{
	int a = hg_names_find(p->s->map->names, name);
	if (a >= 0)
		return a;
	hg_diag *dg = hg_diag_add(p->d, HG_ERROR, pos_at(p, off), "ck.unknown-area",
				  "'%s' is not an area of the map '%s'", name, p->s->map->id);
	suggest(dg, p->s->map->names, name, area_id, p);
	p->failed = 1;
	return -1;
}

static int resolve_seat(parser *p, const char *name, hg_pos pos)
{
	int f = hg_names_find(p->s->sc->seats, name);
	if (f >= 0)
		return f;
	hg_diag *dg = hg_diag_add(p->d, HG_ERROR, pos, "ck.unknown-seat",
				  "'%s' is not a faction of the scenario '%s'", name, p->s->sc->id);
	hg_buf b;
	hg_buf_init(&b);
	for (int i = 0; i < p->s->nsides; i++)
		hg_buf_printf(&b, "%s%s", i ? ", " : "", seat_id(p, i));
	hg_diag_note(dg, "the factions are %s", b.data);
	hg_buf_free(&b);
	p->failed = 1;
	return -1;
}

/* A card of the deck of `seat` (or, stolen, of the other deck), or '?'. */
static int resolve_item(parser *p, const char *name, size_t off, int seat, ck_item *it)
{
	it->pos = pos_at(p, off);
	it->card[0] = it->card[1] = -1;
	if (strcmp(name, "?") == 0)
		return 0;
	for (int r = 0; r < CK_NRELIGIONS; r++)
		it->card[r] = (short)hg_names_find(p->s->data->decks[r].names, name);
	if (it->card[0] >= 0 || it->card[1] >= 0)
		return 0;
	int own = p->s->sc->factions[seat].religion;
	hg_diag *dg = hg_diag_add(p->d, HG_ERROR, it->pos, "ck.unknown-card",
				  "'%s' is not a card of either deck", name);
	int saved = p->seat;
	p->seat = seat;
	suggest(dg, p->s->data->decks[own].names, name, card_id_own, p);
	p->seat = saved;
	p->failed = 1;
	return -1;
}

typedef struct item_list {
	ck_items *out;
	int seat;
} item_list;

static int item_token(parser *p, const char *tok, size_t off, void *ctx)
{
	item_list *l = ctx;
	if (l->out->n >= CK_MAX_LIST) {
		hg_diag_add(p->d, HG_ERROR, pos_at(p, off), "ck.too-many",
			    "more than %d cards in one list", CK_MAX_LIST);
		p->failed = 1;
		return -1;
	}
	ck_item *it = &l->out->v[l->out->n];
	if (resolve_item(p, tok, off, l->seat, it) != 0)
		return -1;
	l->out->n++;
	return 0;
}

/* A list of items from match group g (absent: not given). */
static int parse_items(parser *p, const hg_match *m, int g, int seat, ck_items *out)
{
	out->count = -1;
	if (!hg_match_set(m, g))
		return 0;
	out->given = 1;
	out->pos = pos_at(p, m->start[g]);
	out->v = hg_xcalloc(list_room(count_tokens(m->subject, m->start[g], m->end[g])),
			    sizeof *out->v);
	item_list l = { out, seat };
	return each_token(p, m->subject, m->start[g], m->end[g], item_token, &l);
}

/* The text of group g (which took part): a copy in buf when it fits, else
 * in *heap (malloc'd, for the caller to free). */
typedef struct group_copy {
	char buf[128];
	char *heap;
} group_copy;

static const char *group_text(const hg_match *m, int g, group_copy *c)
{
	size_t n = m->end[g] - m->start[g];
	c->heap = NULL;
	if (n < sizeof c->buf) {
		memcpy(c->buf, m->subject + m->start[g], n);
		c->buf[n] = '\0';
		return c->buf;
	}
	c->heap = hg_match_dup(m, g);
	return c->heap;
}

static int group_area(parser *p, const hg_match *m, int g, int *area, hg_pos *pos)
{
	*area = -1;
	if (!hg_match_set(m, g))
		return 0;
	group_copy c;
	const char *s = group_text(m, g, &c);
	*pos = pos_at(p, m->start[g]);
	*area = resolve_area(p, s, m->start[g]);
	free(c.heap);
	return *area < 0 ? -1 : 0;
}

/* castle AREA...: the first castle, then those of the further steps of a
 * gain past +2 (ruling 17). */
static int group_castles(parser *p, const hg_match *m, int g, ck_play *pl)
{
	pl->castle = -1;
	pl->nmore = 0;
	if (!hg_match_set(m, g))
		return 0;
	group_copy c;
	const char *s = group_text(m, g, &c);
	int rc = 0;
	for (size_t i = 0; s[i] && rc == 0;) {
		size_t len = strcspn(s + i, " ");
		char *name = hg_xstrndup(s + i, len);
		size_t off = m->start[g] + i;
		if (pl->castle < 0) {
			pl->castle_pos = pos_at(p, off);
			pl->castle = resolve_area(p, name, off);
			rc = pl->castle < 0 ? -1 : 0;
		} else if (pl->nmore == CK_MAX_GAIN - 1) {
			hg_diag_add(p->d, HG_ERROR, pos_at(p, off), "ck.too-many",
				    "a bonus step turns at most %d castles", CK_MAX_GAIN);
			p->failed = 1;
			rc = -1;
		} else {
			pl->more_pos[pl->nmore] = pos_at(p, off);
			pl->more_castles[pl->nmore] = resolve_area(p, name, off);
			rc = pl->more_castles[pl->nmore++] < 0 ? -1 : 0;
		}
		free(name);
		i += len + (s[i + len] == ' ');
	}
	free(c.heap);
	return rc;
}

static int group_seat(parser *p, const hg_match *m, int g, int *seat, hg_pos *pos)
{
	*seat = -1;
	if (!hg_match_set(m, g))
		return 0;
	group_copy c;
	const char *s = group_text(m, g, &c);
	*pos = pos_at(p, m->start[g]);
	*seat = resolve_seat(p, s, *pos);
	free(c.heap);
	return *seat < 0 ? -1 : 0;
}

/* A card (or '?') named by group g, which took part. */
static int group_item(parser *p, const hg_match *m, int g, int seat, ck_item *it)
{
	group_copy c;
	const char *s = group_text(m, g, &c);
	int rc = resolve_item(p, s, m->start[g], seat, it);
	free(c.heap);
	return rc;
}

/* The largest die (or modification's face) and hits a roll is read with;
 * the engine says what is wrong with a smaller number, and
 * notation-tokens.c leaves numbers of more digits to this reader. */
#define DIE_MAX 99
#define HITS_MAX 999

/* A number above its field's largest (v, read saturating) is an error that
 * quotes the record's digits: clamped to the field's largest value, it
 * would be quoted later as if the record had written that value. */
static int number_fits(parser *p, const char *digits, size_t len, long v, size_t off,
		       long max, const char *code, const char *what, const char *rule)
{
	if (v >= 0 && v <= max)
		return 1;
	char *q = hg_xstrndup(digits, len);
	hg_diag_add(p->d, HG_ERROR, pos_at(p, off), code, "%s, not %s (%s)", _(what), q, _(rule));
	free(q);
	p->failed = 1;
	return 0;
}

static int die_fits(parser *p, const char *digits, size_t len, long v, size_t off,
		    const char *rule)
{
	return number_fits(p, digits, len, v, off, DIE_MAX, "ck.die-range", N_("a die shows 1 to 6"),
			   rule);
}

static int face_fits(parser *p, const char *digits, size_t len, long v, size_t off)
{
	return number_fits(p, digits, len, v, off, DIE_MAX, "ck.mod-die",
			   N_("a modification changes a die of 1 to 6 into one of 1 to 6"),
			   N_("rule 4.2; ruling 10"));
}

static int hits_fit(parser *p, const char *digits, size_t len, long v, size_t off)
{
	return number_fits(p, digits, len, v, off, HITS_MAX, "ck.hits-wrong",
			   N_("a roll makes at most one hit per die"), N_("rule 4.2"));
}

/* ROLL: the dice, the modifications, the hits (group g of m), through the
 * roll pattern: for a roll with bytes outside ASCII, where \\d takes any
 * Unicode digit. */
static int parse_roll_pcre(parser *p, const hg_match *m, int g, ck_roll *roll)
{
	const ck_patterns *pat = &p->s->data->pat;
	size_t base = m->start[g];
	char *text = hg_match_dup(m, g);
	hg_match r;
	roll->pos = pos_at(p, base);
	roll->hits = -1;
	if (!hg_pattern_match(pat->roll, text, &r)) {
		free(text);
		p->failed = 1;
		return -1;
	}
	int gd = pat->g.roll_dice;
	int gm = pat->g.roll_mods;
	int gh = pat->g.roll_hits;
	roll->given = text[r.start[gd]] != '?';
	if (roll->given) {
		roll->dice = hg_xcalloc(CK_MAX_LIST, sizeof *roll->dice);
		for (size_t i = r.start[gd]; i < r.end[gd];) {
			if (roll->ndice >= CK_MAX_LIST) {
				hg_diag_add(p->d, HG_ERROR, pos_at(p, base + i), "ck.too-many",
					    "more than %d dice in one roll", CK_MAX_LIST);
				free(text);
				p->failed = 1;
				return -1;
			}
			ck_num *n = &roll->dice[roll->ndice++];
			size_t j = i;
			while (j < r.end[gd] && text[j] != ' ')
				j++;
			long v = strtol(text + i, NULL, 10);
			if (!die_fits(p, text + i, j - i, v, base + i, N_("rule 4.2"))) {
				free(text);
				return -1;
			}
			n->pos = pos_at(p, base + i);
			n->v = (int)v;
			i = j + 1;
		}
	}
	if (hg_match_set(&r, gm)) {
		roll->mods = hg_xcalloc(CK_MAX_LIST, sizeof *roll->mods);
		for (size_t i = r.start[gm]; i < r.end[gm];) {
			if (roll->nmods >= CK_MAX_LIST) {
				free(text);
				p->failed = 1;
				return -1;
			}
			ck_mod *md = &roll->mods[roll->nmods++];
			md->pos = pos_at(p, base + i);
			char *end;
			long from = strtol(text + i, &end, 10);
			size_t to_at = (size_t)(end - text) + 3;	/* " > " */
			if (!face_fits(p, text + i, (size_t)(end - text) - i, from, base + i)) {
				free(text);
				return -1;
			}
			long to = strtol(text + to_at, &end, 10);
			if (!face_fits(p, text + to_at, (size_t)(end - text) - to_at, to, base + to_at)) {
				free(text);
				return -1;
			}
			md->from = (int)from;
			md->to = (int)to;
			i = (size_t)(end - text) + 1;
		}
	}
	if (hg_match_set(&r, gh)) {
		long h = strtol(text + r.start[gh], NULL, 10);
		if (!hits_fit(p, text + r.start[gh], r.end[gh] - r.start[gh], h, base + r.start[gh])) {
			free(text);
			return -1;
		}
		roll->hits_pos = pos_at(p, base + r.start[gh]);
		roll->hits = (int)h;
	}
	free(text);
	return 0;
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* The decimal number at text[*i] (digits only), saturating past `cap`;
 * *i moves past it. */
static long read_number(const char *text, size_t *i, size_t end, long cap)
{
	long v = 0;
	for (; *i < end && is_digit(text[*i]); (*i)++)
		if (v <= cap)
			v = v * 10 + (text[*i] - '0');
	return v;
}

/* ROLL: the dice, the modifications, the hits (group g of m).  The attack
 * pattern has matched the group as ROLL already, so in ASCII the parts
 * are found by hand: the dice ('?' or numbers), then " mod " and the
 * pairs FROM > TO, then " = " and the hits; the same values, positions and
 * limits as parse_roll_pcre, which reads a roll with other bytes. */
static int parse_roll(parser *p, const hg_match *m, int g, ck_roll *roll)
{
	const char *x = m->subject;
	size_t start = m->start[g], end = m->end[g];
	for (size_t i = start; i < end; i++)
		if ((unsigned char)x[i] >= 0x80)
			return parse_roll_pcre(p, m, g, roll);
	roll->pos = pos_at(p, start);
	roll->hits = -1;
	size_t i = start;
	if (x[i] == '?') {
		i++;
	} else {
		while (i < end && (is_digit(x[i]) || (x[i] == ' ' && i + 1 < end &&
						      is_digit(x[i + 1]))))
			i++;
	}
	size_t dice_end = i;
	size_t mods = (size_t)-1, mods_end = i;
	if (end - i >= 5 && x[i] == ' ' && (x[i + 1] | 0x20) == 'm' && (x[i + 2] | 0x20) == 'o' &&
	    (x[i + 3] | 0x20) == 'd' && x[i + 4] == ' ') {
		mods = i + 5;
		mods_end = mods;
		while (mods_end < end && !(x[mods_end] == ' ' && x[mods_end + 1] == '='))
			mods_end++;
		i = mods_end;
	}
	size_t hits = i < end ? i + 3 : (size_t)-1;	/* " = " */

	roll->given = x[start] != '?';
	if (roll->given) {
		roll->dice = hg_xcalloc(list_room(count_tokens(x, start, dice_end)),
					sizeof *roll->dice);
		for (size_t k = start; k < dice_end;) {
			if (roll->ndice >= CK_MAX_LIST) {
				hg_diag_add(p->d, HG_ERROR, pos_at(p, k), "ck.too-many",
					    "more than %d dice in one roll", CK_MAX_LIST);
				p->failed = 1;
				return -1;
			}
			ck_num *n = &roll->dice[roll->ndice++];
			size_t j = k;
			long v = read_number(x, &j, dice_end, 99);
			if (!die_fits(p, x + k, j - k, v, k, N_("rule 4.2")))
				return -1;
			n->pos = pos_at(p, k);
			n->v = (int)v;
			k = j + 1;
		}
	}
	if (mods != (size_t)-1) {
		size_t nmods = 0;
		for (size_t k = mods; k < mods_end; k++)
			nmods += x[k] == '>';
		roll->mods = hg_xcalloc(list_room(nmods), sizeof *roll->mods);
		for (size_t k = mods; k < mods_end;) {
			if (roll->nmods >= CK_MAX_LIST) {
				p->failed = 1;
				return -1;
			}
			ck_mod *md = &roll->mods[roll->nmods++];
			md->pos = pos_at(p, k);
			size_t at = k;
			long from = read_number(x, &k, mods_end, 99);
			if (!face_fits(p, x + at, k - at, from, at))
				return -1;
			k += 3;	/* " > " */
			at = k;
			long to = read_number(x, &k, mods_end, 99);
			if (!face_fits(p, x + at, k - at, to, at))
				return -1;
			md->from = (int)from;
			md->to = (int)to;
			k++;
		}
	}
	if (hits != (size_t)-1) {
		roll->hits_pos = pos_at(p, hits);
		size_t at = hits;
		long h = read_number(x, &hits, end, 999);
		if (!hits_fit(p, x + at, hits - at, h, at))
			return -1;
		roll->hits = (int)h;
	}
	return 0;
}

typedef struct resp_list {
	ck_attack *a;
	int field;		/* 0 '&', 1 seat, 2 card, 3 side */
} resp_list;

static int resp_token(parser *p, const char *tok, size_t off, void *ctx)
{
	resp_list *l = ctx;
	ck_attack *a = l->a;
	switch (l->field) {
	case 0:
		if (a->nresp >= CK_MAX_LIST) {
			hg_diag_add(p->d, HG_ERROR, pos_at(p, off), "ck.too-many",
				    "more than %d responses in one attack", CK_MAX_LIST);
			p->failed = 1;
			return -1;
		}
		a->resp[a->nresp].pos = pos_at(p, off);
		break;
	case 1:
		a->resp[a->nresp].seat = resolve_seat(p, tok, pos_at(p, off));
		if (a->resp[a->nresp].seat < 0)
			return -1;
		break;
	case 2:
		if (strcmp(tok, "?") == 0 ||
		    resolve_item(p, tok, off, a->resp[a->nresp].seat, &a->resp[a->nresp].card) != 0) {
			if (!p->failed)
				hg_diag_add(p->d, HG_ERROR, pos_at(p, off), "ck.syntax",
					    "a response is revealed before the combat: name the card");
			p->failed = 1;
			return -1;
		}
		break;
	case 3:
		if (hg_name_eq(tok, "attack") || hg_name_eq(tok, "ataque")) {
			a->resp[a->nresp].side = CK_SIDE_ATTACK;
		} else if (hg_name_eq(tok, "defence") || hg_name_eq(tok, "defense") ||
			   hg_name_eq(tok, "defensa")) {
			a->resp[a->nresp].side = CK_SIDE_DEFENCE;
		} else {
			hg_diag_add(p->d, HG_ERROR, pos_at(p, off), "ck.syntax",
				    "a response supports the 'attack' or the 'defence', not '%s'", tok);
			p->failed = 1;
			return -1;
		}
		a->nresp++;
		break;
	}
	l->field = (l->field + 1) % 4;
	return 0;
}

static int with_token(parser *p, const char *tok, size_t off, void *ctx)
{
	ck_attack *a = ctx;
	if (a->nwith >= CK_MAX_LIST) {
		hg_diag_add(p->d, HG_ERROR, pos_at(p, off), "ck.too-many",
			    "more than %d cards in one attack", CK_MAX_LIST);
		p->failed = 1;
		return -1;
	}
	if (strcmp(tok, "?") == 0) {
		hg_diag_add(p->d, HG_ERROR, pos_at(p, off), "ck.syntax",
			    "the attacker's cards are revealed before the combat: name each card (rule 4.1, step 5)");
		p->failed = 1;
		return -1;
	}
	return resolve_item(p, tok, off, p->seat, &a->with[a->nwith++]);
}

static int turn_token(parser *p, const char *tok, size_t off, void *ctx)
{
	ck_attack *a = ctx;
	if (a->nturned >= CK_MAX_LIST) {
		p->failed = 1;
		return -1;
	}
	ck_num *n = &a->turned[a->nturned];
	n->pos = pos_at(p, off);
	n->v = resolve_area(p, tok, off);
	if (n->v < 0)
		return -1;
	for (int i = 0; i < a->nturned; i++)
		if (a->turned[i].v == n->v) {
			hg_diag_add(p->d, HG_ERROR, n->pos, "ck.syntax",
				    "castle '%s' is turned twice", area_id(p, n->v));
			p->failed = 1;
			return -1;
		}
	a->nturned++;
	return 0;
}

/* The attack, from `sub` (the text from "attack" on, at offset base). */
static int parse_attack(parser *p, const char *sub, size_t base, ck_attack *a)
{
	const hg_pattern *pat = p->s->data->pat.attack;
	const ck_groups *gr = &p->s->data->pat.g;
	hg_match m;
	if (!hg_pattern_match(pat, sub, &m)) {
		hg_diag *dg = hg_diag_add(p->d, HG_ERROR, pos_at(p, base), "ck.syntax",
					  "this attack does not follow the syntax (grammar/crusader-kingdoms.ebnf)");
		hg_diag_note(dg, "e.g. 'attack homs from latakia with tropa-2 tropa-3 & damasco lider defence / 1 3 4 4 6 = 3 vs 1 1 2 3 mod 2>4 3>4 = 2 / won bonus'");
		p->failed = 1;
		return -1;
	}
	/* Offsets in `sub` are offsets in the action text less `base`. */
	for (int g = 0; g < HG_MATCH_GROUPS; g++)
		if (m.start[g] != (size_t)-1) {
			m.start[g] += base;
			m.end[g] += base;
		}
	m.subject = p->t->text;
	a->castle = -1;
	if (group_area(p, &m, gr->att_target, &a->target, &a->target_pos) != 0 || a->target < 0 ||
	    group_area(p, &m, gr->att_from, &a->from, &a->from_pos) != 0)
		return -1;
	int g = gr->att_with;
	if (hg_match_set(&m, g)) {
		a->with_pos = pos_at(p, m.start[g]);
		a->with = hg_xcalloc(list_room(count_tokens(m.subject, m.start[g], m.end[g])),
				     sizeof *a->with);
		if (each_token(p, m.subject, m.start[g], m.end[g], with_token, a) != 0)
			return -1;
	}
	g = gr->att_resp;
	if (hg_match_set(&m, g) && m.end[g] > m.start[g]) {
		/* four tokens a response: & SEAT CARD SIDE */
		size_t n = count_tokens(m.subject, m.start[g] + 1, m.end[g]) / 4;
		a->resp = hg_xcalloc(list_room(n), sizeof *a->resp);
		resp_list l = { a, 0 };
		/* the group starts with the space before the first '&' */
		if (each_token(p, m.subject, m.start[g] + 1, m.end[g], resp_token, &l) != 0)
			return -1;
	}
	g = gr->att_turn;
	if (hg_match_set(&m, g)) {
		a->turned = hg_xcalloc(list_room(count_tokens(m.subject, m.start[g], m.end[g])),
				       sizeof *a->turned);
		if (each_token(p, m.subject, m.start[g], m.end[g], turn_token, a) != 0)
			return -1;
	}
	if (parse_roll(p, &m, gr->att_aroll, &a->roll[0]) != 0 ||
	    parse_roll(p, &m, gr->att_droll, &a->roll[1]) != 0)
		return -1;
	g = gr->att_outcome;
	a->outcome_pos = pos_at(p, m.start[g]);
	/* won, gana; lost, pierde */
	char o = (char)(m.subject[m.start[g]] | 0x20);
	a->won = o == 'w' || o == 'g';
	g = gr->att_choice;
	if (hg_match_set(&m, g)) {
		a->castle_pos = pos_at(p, m.start[g]);
		/* castle, castillo; bonus */
		int castle = (m.subject[m.start[g]] | 0x20) == 'c';
		int gc = gr->att_castle;
		if (castle != hg_match_set(&m, gc)) {
			hg_diag_add(p->d, HG_ERROR, a->castle_pos, "ck.syntax",
				    castle ? "'castle' needs the area whose castle turns to +1" :
				    "'bonus' takes no area");
			p->failed = 1;
			return -1;
		}
		a->choice = castle ? CK_CHOICE_CASTLE : CK_CHOICE_BONUS;
		if (castle && group_area(p, &m, gc, &a->castle, &a->castle_pos) != 0)
			return -1;
	} else {
		a->castle_pos = a->outcome_pos;
	}
	return 0;
}

hg_action *ck_action_new(ck_kind kind, int seat)
{
	hg_action *a = hg_xmalloc(sizeof *a);
	ck_action_init(a, kind, seat);
	return a;
}

/* Out of line, the size is not known here: a call to the library's
 * memset, never `rep stos` (ck.h). */
void ck_clear_bytes(void *p, size_t n)
{
	memset(p, 0, n);
}

void ck_free_attack(ck_attack *a)
{
	free(a->with);
	free(a->resp);
	free(a->turned);
	for (int i = 0; i < 2; i++) {
		free(a->roll[i].dice);
		free(a->roll[i].mods);
	}
}

void ck_free_action(hg_action *a)
{
	if (!a)
		return;
	ck_shared *home = a->home;
	if (home) {		/* read from the tokens: kept for the next */
		if (!home->spare_action) {
			home->spare_action = a;
		} else {
			free(a->lists);
			free(a);
		}
		ck_shared_unref(home);
		return;
	}
	if (a->lists) {		/* its lists are all in one block */
		free(a->lists);
		free(a);
		return;
	}
	switch (a->kind) {
	case CK_ACT_DRAW:
		free(a->draw.v);
		break;
	case CK_ACT_INCURSION:
		free(a->inc.discards.v);
		break;
	case CK_ACT_PLAY:
		free(a->play.draws.v);
		free(a->play.takes.v);
		free(a->play.discards.v);
		ck_free_attack(&a->play.attack);
		break;
	case CK_ACT_ATTACK:
		ck_free_attack(&a->attack);
		break;
	case CK_ACT_REVEAL:
		free(a->rev.args.takes.v);
		free(a->rev.args.discards.v);
		ck_free_attack(&a->rev.attack);
		break;
	case CK_ACT_PASS:
	case CK_ACT_DISCARD:
		break;
	}
	free(a);
}

static int parse_draw(parser *p, hg_action *a, const hg_match *m)
{
	const ck_groups *gr = &p->s->data->pat.g;
	int g = gr->draw_count;
	a->draw.count = -1;
	if (parse_items(p, m, gr->draw_items, a->seat, &a->draw) != 0)
		return -1;
	if (hg_match_set(m, g)) {
		long n = strtol(m->subject + m->start[g], NULL, 10);
		if (m->end[g] - m->start[g] > 3 || n > CK_MAX_DECK) {
			hg_diag_add(p->d, HG_ERROR, pos_at(p, m->start[g]), "ck.too-many",
				    "no one draws %s cards", m->subject + m->start[g]);
			return -1;
		}
		a->draw.given = 1;
		a->draw.count = (int)n;
		if (!a->draw.v)
			a->draw.pos = pos_at(p, m->start[g]);
		else
			a->draw.pos = pos_at(p, m->start[g]);
		/* "draw 7 ?" or "draw 7": seven hidden cards */
		if (a->draw.n > 1 || (a->draw.n == 1 && (a->draw.v[0].card[0] >= 0 ||
							a->draw.v[0].card[1] >= 0))) {
			hg_diag_add(p->d, HG_ERROR, pos_at(p, m->start[g]), "ck.syntax",
				    "a count goes with '?' only: write 'draw %ld ?' or list the cards", n);
			return -1;
		}
	}
	return 0;
}

static int parse_incursion(parser *p, hg_action *a, const hg_match *m)
{
	const ck_groups *gr = &p->s->data->pat.g;
	ck_incursion *in = &a->inc;
	if (group_seat(p, m, gr->inc_target, &in->target, &in->target_pos) != 0)
		return -1;
	if (group_item(p, m, gr->inc_card, a->seat, &in->card) != 0)
		return -1;
	int g = gr->inc_die;
	in->die = -1;
	if (hg_match_set(m, g)) {
		in->die_pos = pos_at(p, m->start[g]);
		const char *t = m->subject + m->start[g];
		long v = *t == '?' ? CK_DIE_HIDDEN : strtol(t, NULL, 10);
		if (v != CK_DIE_HIDDEN &&
		    !die_fits(p, t, m->end[g] - m->start[g], v, m->start[g], N_("rule 4.3")))
			return -1;
		in->die = (int)v;
	}
	return parse_items(p, m, gr->inc_items, in->target, &in->discards);
}

static int parse_play(parser *p, hg_action *a, const hg_match *m)
{
	const ck_groups *gr = &p->s->data->pat.g;
	ck_play *pl = &a->play;
	if (group_item(p, m, gr->play_card, a->seat, &pl->card) != 0)
		return -1;
	if (group_seat(p, m, gr->play_on, &pl->on, &pl->on_pos) != 0 ||
	    group_area(p, m, gr->play_at, &pl->at, &pl->at_pos) != 0 ||
	    group_castles(p, m, gr->play_castle, pl) != 0)
		return -1;
	int victim = pl->on >= 0 ? pl->on : a->seat;
	if (parse_items(p, m, gr->play_draws, a->seat, &pl->draws) != 0 ||
	    parse_items(p, m, gr->play_takes, victim, &pl->takes) != 0 ||
	    parse_items(p, m, gr->play_discards, victim, &pl->discards) != 0)
		return -1;
	int g = gr->play_attack;
	if (hg_match_set(m, g)) {
		pl->has_attack = 1;
		return parse_attack(p, m->subject + m->start[g], m->start[g], &pl->attack);
	}
	return 0;
}

/* Rule 8.3: a scripted side's round. */
static int parse_reveal(parser *p, hg_action *a, const hg_match *m)
{
	const ck_groups *gr = &p->s->data->pat.g;
	ck_reveal *rv = &a->rev;
	int g = gr->rev_card;
	if (m->subject[m->start[g]] == '?') {
		hg_diag_add(p->d, HG_ERROR, pos_at(p, m->start[g]), "ck.syntax",
			    "the card revealed is shown face up: name it (rule 8.3)");
		p->failed = 1;
		return -1;
	}
	if (group_item(p, m, g, a->seat, &rv->card) != 0)
		return -1;
	ck_play *args = &rv->args;
	if (group_seat(p, m, gr->rev_on, &args->on, &args->on_pos) != 0 ||
	    group_area(p, m, gr->rev_at, &args->at, &args->at_pos) != 0 ||
	    group_castles(p, m, gr->rev_castle, args) != 0)
		return -1;
	int victim = args->on >= 0 ? args->on : a->seat;
	if (parse_items(p, m, gr->rev_takes, victim, &args->takes) != 0 ||
	    parse_items(p, m, gr->rev_discards, victim, &args->discards) != 0)
		return -1;
	g = gr->rev_place;
	if (hg_match_set(m, g)) {
		rv->place_pos = pos_at(p, m->start[g]);
		const char *w = m->subject + m->start[g];
		/* army, ejército; response, respuesta; discarded, descartada */
		char c = (char)(w[0] | 0x20);
		rv->place = c == 'a' || c == 'e' ? CK_PLACE_ARMY :
			    c == 'r' ? CK_PLACE_RESPONSE : CK_PLACE_DISCARDED;
	}
	g = gr->rev_die;
	if (hg_match_set(m, g)) {
		rv->die_pos = pos_at(p, m->start[g]);
		const char *t = m->subject + m->start[g];
		long v = *t == '?' ? CK_DIE_HIDDEN : strtol(t, NULL, 10);
		if (v != CK_DIE_HIDDEN &&
		    !die_fits(p, t, m->end[g] - m->start[g], v, m->start[g], N_("rule 8.3")))
			return -1;
		rv->die = (int)v;
	}
	g = gr->rev_attack;
	if (hg_match_set(m, g)) {
		rv->has_attack = 1;
		return parse_attack(p, m->subject + m->start[g], m->start[g], &rv->attack);
	}
	return 0;
}

static int first_word_is(const char *text, const char *word)
{
	size_t n = strlen(word);
	char *head = hg_xstrndup(text, strcspn(text, " "));
	int eq = strlen(head) == n && hg_name_eq(head, word);
	free(head);
	return eq;
}

static void syntax_error(parser *p)
{
	hg_diag *dg = hg_diag_add(p->d, HG_ERROR, p->t->pos, "ck.syntax",
				  "'%s' is not a Crusader Kingdoms action", p->t->text);
	hg_diag_note(dg, "the actions are draw, attack, incursion, play, discard and pass, and a scripted side's reveal (grammar/crusader-kingdoms.ebnf)");
}

/* Which pattern the action's first word selects.  Each pattern begins with
 * its keyword followed by a space or the end, so an ASCII first word (whose
 * caseless match is plain ASCII case) can match at most the one pattern
 * named by it: trying the others, in order, finds nothing more.  A first
 * word with other bytes goes through every pattern in order, as before. */
enum { FIRST_NONE, FIRST_DRAW, FIRST_PASS, FIRST_DISCARD, FIRST_INCURSION, FIRST_PLAY,
       FIRST_REVEAL, FIRST_ATTACK, FIRST_OTHER };

static int first_word(const char *text)
{
	/* each action's English and Spanish word ("incursión" has a byte
	 * above ASCII, and goes through every pattern) */
	static const char *const words[] = {
		"draw", "pass", "discard", "incursion", "play", "reveal", "attack",
		"robar", "pasar", "descartar", "incursion", "jugar", "revelar", "atacar"
	};
	size_t n = 0;
	char low[10];
	for (; text[n] && text[n] != ' '; n++) {
		unsigned char c = (unsigned char)text[n];
		if (c >= 0x80)
			return FIRST_OTHER;
		if (n < sizeof low)
			low[n] = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
	}
	if (n > sizeof low - 1)
		return FIRST_NONE;
	low[n] = '\0';
	for (int i = 0; i < 14; i++)
		if (strcmp(low, words[i]) == 0)
			return FIRST_DRAW + i % 7;
	return FIRST_NONE;
}

/* The action read with the patterns, with a diagnostic for each fault. */
hg_action *hg_ck_parse_patterns(const hg_state *s, const hg_action_text *t, hg_diags *d)
{
	parser p = { s, t, d, -1, 0, 0 };
	hg_pos seat_pos = t->seat_pos.line ? t->seat_pos : t->pos;
	int seat = resolve_seat(&p, t->seat ? t->seat : "", seat_pos);
	if (seat < 0)
		return NULL;
	p.seat = seat;
	const ck_patterns *pat = &s->data->pat;
	const char *text = t->text ? t->text : "";
	hg_match m;
	hg_action *a = NULL;
	int rc = -1;
	int first = first_word(text);
	int any = first == FIRST_OTHER;
	if ((any || first == FIRST_DRAW) && hg_pattern_match(pat->draw, text, &m)) {
		a = ck_action_new(CK_ACT_DRAW, seat);
		rc = parse_draw(&p, a, &m);
	} else if ((any || first == FIRST_PASS) && hg_pattern_match(pat->pass, text, &m)) {
		a = ck_action_new(CK_ACT_PASS, seat);
		a->end = hg_match_set(&m, pat->g.pass_end);
		rc = 0;
	} else if ((any || first == FIRST_DISCARD) && hg_pattern_match(pat->discard, text, &m)) {
		a = ck_action_new(CK_ACT_DISCARD, seat);
		rc = group_item(&p, &m, pat->g.discard_item, seat, &a->discard);
	} else if ((any || first == FIRST_INCURSION) &&
		   hg_pattern_match(pat->incursion, text, &m)) {
		a = ck_action_new(CK_ACT_INCURSION, seat);
		rc = parse_incursion(&p, a, &m);
	} else if ((any || first == FIRST_PLAY) && hg_pattern_match(pat->play, text, &m)) {
		a = ck_action_new(CK_ACT_PLAY, seat);
		rc = parse_play(&p, a, &m);
	} else if ((any || first == FIRST_REVEAL) && hg_pattern_match(pat->reveal, text, &m)) {
		a = ck_action_new(CK_ACT_REVEAL, seat);
		rc = parse_reveal(&p, a, &m);
	} else if (any ? first_word_is(text, "attack") || first_word_is(text, "atacar") :
			 first == FIRST_ATTACK) {
		a = ck_action_new(CK_ACT_ATTACK, seat);
		rc = parse_attack(&p, text, 0, &a->attack);
	} else {
		syntax_error(&p);
		return NULL;
	}
	if (rc != 0 || p.failed) {
		if (d && d->nerrors == 0)
			syntax_error(&p);
		ck_free_action(a);
		return NULL;
	}
	a->pos = t->pos;
	a->seat_pos = seat_pos;
	return a;
}

/* An action is read from its tokens (notation-tokens.c) when it can be:
 * that reading accepts only what the patterns accept, and builds the same
 * action.  Anything else, and every fault, is read with the patterns. */
hg_action *ck_parse(const hg_state *s, const hg_action_text *t, hg_diags *d)
{
	hg_action *a = hg_ck_parse_tokens(s, t);
	return a ? a : hg_ck_parse_patterns(s, t, d);
}

/* ------------------------------------------------------------ writing */
static const char *card_name(const hg_state *s, const ck_item *it, int seat)
{
	return ck_item_name(s, it, s->sc->factions[seat].religion);
}

static void put_items(const hg_state *s, const ck_items *l, int seat, hg_buf *b)
{
	for (int i = 0; i < l->n; i++)
		hg_buf_printf(b, " %s", card_name(s, &l->v[i], seat));
}

static void put_roll(const ck_roll *r, hg_buf *b)
{
	if (!r->given) {
		hg_buf_puts(b, "?");
	} else {
		for (int i = 0; i < r->ndice; i++)
			hg_buf_printf(b, "%s%d", i ? " " : "", r->dice[i].v);
	}
	for (int i = 0; i < r->nmods; i++)
		hg_buf_printf(b, "%s%d>%d", i ? " " : " mod ", r->mods[i].from, r->mods[i].to);
	if (r->hits >= 0)
		hg_buf_printf(b, " = %d", r->hits);
}

void ck_format_attack(const hg_state *s, int seat, const ck_attack *a, hg_buf *b)
{
	const ck_map *m = s->map;
	hg_buf_printf(b, "attack %s", m->areas[a->target].id);
	if (a->from >= 0)
		hg_buf_printf(b, " from %s", m->areas[a->from].id);
	if (a->nwith) {
		hg_buf_puts(b, " with");
		for (int i = 0; i < a->nwith; i++)
			hg_buf_printf(b, " %s", card_name(s, &a->with[i], seat));
	}
	for (int i = 0; i < a->nresp; i++) {
		const ck_response *r = &a->resp[i];
		hg_buf_printf(b, " & %s %s %s", s->sc->factions[r->seat].id,
			      card_name(s, &r->card, r->seat),
			      r->side == CK_SIDE_ATTACK ? "attack" : "defence");
	}
	if (a->nturned) {
		hg_buf_puts(b, " turn");
		for (int i = 0; i < a->nturned; i++)
			hg_buf_printf(b, " %s", m->areas[a->turned[i].v].id);
	}
	hg_buf_puts(b, " / ");
	put_roll(&a->roll[0], b);
	hg_buf_puts(b, " vs ");
	put_roll(&a->roll[1], b);
	hg_buf_puts(b, a->won ? " / won" : " / lost");
	if (a->choice == CK_CHOICE_BONUS)
		hg_buf_puts(b, " bonus");
	else if (a->choice == CK_CHOICE_CASTLE)
		hg_buf_printf(b, " castle %s", m->areas[a->castle].id);
}

/* An effect's arguments, as play and reveal write them (a revealed card
 * never draws: its draws are never given). */
static void put_effect_args(const hg_state *s, int seat, const ck_play *p, hg_buf *body)
{
	int victim = p->on >= 0 ? p->on : seat;
	if (p->on >= 0)
		hg_buf_printf(body, " on %s", s->sc->factions[p->on].id);
	if (p->at >= 0)
		hg_buf_printf(body, " at %s", s->map->areas[p->at].id);
	if (p->draws.given) {
		hg_buf_puts(body, " draws");
		put_items(s, &p->draws, seat, body);
	}
	if (p->takes.given) {
		hg_buf_puts(body, " takes");
		put_items(s, &p->takes, victim, body);
	}
	if (p->discards.given) {
		hg_buf_puts(body, " discards");
		put_items(s, &p->discards, victim, body);
	}
	if (p->castle >= 0)
		hg_buf_printf(body, " castle %s", s->map->areas[p->castle].id);
	for (int i = 0; i < p->nmore; i++)
		hg_buf_printf(body, " %s", s->map->areas[p->more_castles[i]].id);
}

void ck_format(const hg_state *s, const hg_action *a, hg_buf *seat, hg_buf *body)
{
	hg_buf_puts(seat, s->sc->factions[a->seat].id);
	switch (a->kind) {
	case CK_ACT_DRAW:
		hg_buf_puts(body, "draw");
		if (a->draw.count >= 0)
			hg_buf_printf(body, " %d", a->draw.count);
		put_items(s, &a->draw, a->seat, body);
		break;
	case CK_ACT_PASS:
		hg_buf_puts(body, a->end ? "pass end" : "pass");
		break;
	case CK_ACT_DISCARD:
		hg_buf_printf(body, "discard %s", card_name(s, &a->discard, a->seat));
		break;
	case CK_ACT_INCURSION:
		hg_buf_printf(body, "incursion %s with %s", s->sc->factions[a->inc.target].id,
			      card_name(s, &a->inc.card, a->seat));
		if (a->inc.die == CK_DIE_HIDDEN)
			hg_buf_puts(body, " / ?");
		else if (a->inc.die >= 0)
			hg_buf_printf(body, " / %d", a->inc.die);
		if (a->inc.discards.given) {
			hg_buf_puts(body, " discards");
			put_items(s, &a->inc.discards, a->inc.target, body);
		}
		break;
	case CK_ACT_PLAY: {
		const ck_play *p = &a->play;
		hg_buf_printf(body, "play %s", card_name(s, &p->card, a->seat));
		put_effect_args(s, a->seat, p, body);
		if (p->has_attack) {
			hg_buf_putc(body, ' ');
			ck_format_attack(s, a->seat, &p->attack, body);
		}
		break;
	}
	case CK_ACT_ATTACK:
		ck_format_attack(s, a->seat, &a->attack, body);
		break;
	case CK_ACT_REVEAL: {
		static const char *const places[] = { "", " army", " response", " discarded" };
		const ck_reveal *rv = &a->rev;
		hg_buf_printf(body, "reveal %s", card_name(s, &rv->card, a->seat));
		put_effect_args(s, a->seat, &rv->args, body);
		hg_buf_puts(body, places[rv->place]);
		if (rv->die == CK_DIE_HIDDEN)
			hg_buf_puts(body, " / ?");
		else if (rv->die >= 0)
			hg_buf_printf(body, " / %d", rv->die);
		if (rv->has_attack) {
			hg_buf_putc(body, ' ');
			ck_format_attack(s, a->seat, &rv->attack, body);
		}
		break;
	}
	}
}
