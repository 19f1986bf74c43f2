/* notation-write.c - Crusader Kingdoms: an action written back in the
 * canonical spelling of the action syntax (grammar/crusader-kingdoms.ebnf):
 * the ids of the data files and the English keywords (each word's first
 * spelling in notation-words.h), which the reader (notation.c) reads back
 * into the same action (test-ck-grammar.c reads back every action it
 * writes).
 */
#include "config.h"

#include "ck.h"

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
