/* render.c - a plain-text picture of an Encrucijada position.  What is
 * hidden stays hidden: piles and hidden stacks show as counts, a hand as
 * its count and the cards the record has named; the
 * towers, the towns, wear, the war and the effects in force show in full. */
#include "config.h"

#include <string.h>

#include "enc.h"

static const char *const phase_names[] = {
	"set-up", "A (draw)", "B (put down)", "C (effects)", "D (war)", "E (effects)"
};

static void resources(const hg_state *s, int seat, hg_buf *out)
{
	int res[ENC_MAX_RES];
	enc_resources(s, seat, res);
	int any = 0;
	for (int r = 0; r < s->data->pool.nres; r++)
		if (res[r]) {
			hg_buf_printf(out, "%s%s %d", any ? ", " : "", s->data->pool.res[r].id, res[r]);
			any = 1;
		}
	if (!any)
		hg_buf_puts(out, "none");
}

static void town(const hg_state *s, int seat, hg_buf *out)
{
	int v[ENC_MAX_DECK], res[ENC_MAX_RES];
	int n = enc_zone_list(s, seat, ENC_Z_TOWN, v);
	enc_set active = enc_activity(s, seat, res);
	if (n == 0)
		hg_buf_puts(out, "empty");
	for (int i = 0; i < n; i++) {
		const enc_card *c = enc_card_of(s, seat, v[i]);
		hg_buf_printf(out, "%s%s %d", i ? ", " : "", c->id, enc_value(s, seat, v[i]));
		if (!((active >> v[i]) & 1))
			hg_buf_puts(out, " (inactive)");
		else if (enc_effect_used(s, seat, v[i]))
			hg_buf_puts(out, " (effect used)");
	}
}

static void stacks(const hg_state *s, int seat, hg_buf *out)
{
	int any = 0;
	for (int st = 0; st < ENC_MAX_STACKS; st++) {
		int n = enc_stack_count(s, seat, st);
		if (n == 0)
			continue;
		const enc_stack *k = &s->p[seat].stacks[st];
		hg_buf_printf(out, "%s%c:%d", any ? " " : "", 'a' + st, n);
		if (k->state == ENC_STACK_USED)
			hg_buf_puts(out, "(used)");
		else if (k->state == ENC_STACK_BLOCKED)
			hg_buf_puts(out, "(blocked)");
		any = 1;
	}
	if (!any)
		hg_buf_puts(out, "none");
}

/* The hand's count, and the cards the record has named ("?" for the
 * others) when it has named any. */
static void hand(const hg_state *s, int seat, hg_buf *out)
{
	int v[ENC_MAX_DECK];
	int n = enc_zone_list(s, seat, ENC_Z_HAND, v), named = 0;
	hg_buf_printf(out, "hand: %d", n);
	for (int i = 0; i < n; i++)
		named += s->p[seat].inst[v[i]].card >= 0;
	if (!named)
		return;
	for (int i = 0; i < n; i++)
		hg_buf_printf(out, "%s%s", i ? ", " : " (", enc_card_id(s, s->p[seat].inst[v[i]].card));
	hg_buf_putc(out, ')');
}

static void player(const hg_state *s, int seat, hg_buf *out)
{
	const enc_player *p = &s->p[seat];
	const enc_pool *pool = &s->data->pool;
	hg_buf_printf(out, "%s", enc_seat_name(seat));
	if ((size_t)seat < s->sh->nnames)
		hg_buf_printf(out, " (%s)", s->sh->names[seat]);
	if (s->nteams < s->nseats)
		hg_buf_printf(out, ", team %d", p->team + 1);
	hg_buf_printf(out, ", deck %s", s->data->decks[p->deck]->id);
	if (p->eliminated)
		hg_buf_printf(out, ": out of the game (%s)",
			      p->eliminated == ENC_LOST_TOWER ? "tower destroyed" : "a pile ran out");
	hg_buf_putc(out, '\n');
	hg_buf_printf(out, "  tower %s: resistance %d of %d", pool->cards[p->tower].id,
		      enc_tower_of_c(s, seat)->resistance, pool->cards[p->tower].value);
	if (p->tower_seat != seat)	/* ruling 28 */
		hg_buf_printf(out, ", shared with %s", enc_seat_name(p->tower_seat));
	hg_buf_putc(out, '\n');
	hg_buf_puts(out, "  resources: ");
	resources(s, seat, out);
	hg_buf_putc(out, '\n');
	int v[ENC_MAX_DECK];
	hg_buf_printf(out, "  piles: %d %d %d; ", enc_pile_list(s, seat, 0, v),
		      enc_pile_list(s, seat, 1, v), enc_pile_list(s, seat, 2, v));
	hand(s, seat, out);
	hg_buf_printf(out, "; discard: %d", enc_zone_count(s, seat, ENC_Z_DISCARD));
	if (p->wear)
		hg_buf_printf(out, "; wear %d", p->wear);
	if (p->credits)
		hg_buf_printf(out, "; may put down %d more", p->credits);
	hg_buf_puts(out, "\n  town: ");
	town(s, seat, out);
	hg_buf_puts(out, "\n  hidden stacks: ");
	stacks(s, seat, out);
	hg_buf_putc(out, '\n');
}

static void war(const hg_state *s, hg_buf *out)
{
	static const char *const stages[] = { "", "declared", "battle", "invasion" };
	const enc_war *w = &s->war;
	if (w->stage == ENC_WAR_NONE)
		return;
	hg_buf_printf(out, "War: %s attacks %s (%s)", enc_seat_name(w->att),
		      enc_seat_name(w->def), stages[w->stage]);
	if (w->att_army >= 0)
		hg_buf_printf(out, "; %s's army %c", enc_seat_name(w->att), 'a' + w->att_army);
	if (w->att_card >= 0)
		hg_buf_printf(out, ", attacking with %s %d",
			      enc_card_id(s, s->p[w->att].inst[w->att_card].card),
			      enc_value(s, w->att, w->att_card));
	if (w->def_army >= 0)
		hg_buf_printf(out, "; %s's army %c", enc_seat_name(w->def), 'a' + w->def_army);
	if (w->def_card >= 0)
		hg_buf_printf(out, ", defending with %s %d",
			      enc_card_id(s, s->p[w->def].inst[w->def_card].card),
			      enc_value(s, w->def, w->def_card));
	if (w->target == ENC_TGT_TOWER)
		hg_buf_puts(out, "; target: the tower");
	else if (w->target == ENC_TGT_TOWN)
		hg_buf_printf(out, "; target: %s",
			      enc_card_id(s, s->p[w->def].inst[w->target_inst].card));
	else if (w->target == ENC_TGT_ARMY)
		hg_buf_puts(out, "; target: an army");
	hg_buf_printf(out, "; waiting for %s\n", enc_seat_name(enc_war_waiting(s)));
}

static void exchange(const hg_state *s, hg_buf *out)
{
	if (!s->ex.active)
		return;
	hg_buf_printf(out, "Effects waiting for %s's answer:", enc_seat_name(s->ex.target));
	for (int i = 0; i < s->ex.n; i++) {
		const enc_use *u = &s->ex.uses[i];
		hg_buf_printf(out, " %s%s (%s, priority %d)", i ? "; " : "",
			      s->data->pool.cards[u->card].id, enc_seat_name(u->seat), u->level);
	}
	hg_buf_putc(out, '\n');
}

static void in_force(const hg_state *s, hg_buf *out)
{
	static const char *const durs[] = { "now", "this turn", "for a round", "for the war" };
	for (int i = 0; i < s->nmods; i++) {
		const enc_mod *m = &s->mods[i];
		hg_buf_printf(out, "In force: %s", enc_seat_name(m->seat));
		if (m->value)
			hg_buf_printf(out, " value %+d", m->value);
		if (m->marks & ENC_MARK_DEFENCE)
			hg_buf_puts(out, " defence");
		if (m->marks & ENC_MARK_INVADE)
			hg_buf_puts(out, " invade");
		if (m->res >= 0)
			hg_buf_printf(out, " %s %+d", s->data->pool.res[m->res].id, m->res_amount);
		hg_buf_printf(out, " %s\n", durs[m->dur]);
	}
	for (int i = 0; i < s->nbans; i++) {
		static const char *const what[] = { "declare war", "use effects", "put cards down" };
		hg_buf_printf(out, "In force: %s may not %s in its %s turn\n",
			      enc_seat_name(s->bans[i].seat), what[s->bans[i].what],
			      s->bans[i].turn == 0 ? "next" : "current");
	}
}

void enc_render(const hg_state *s, hg_buf *out)
{
	hg_buf_printf(out, "Encrucijada, turn %u", s->turn);
	if (s->over) {
		hg_buf_printf(out, ": over, %s %s\n", s->result,
			      s->winner_team < 0 ? "" : "won");
	} else {
		hg_buf_printf(out, ", %s's turn, phase %s; %s to act\n", enc_seat_name(s->current),
			      phase_names[s->phase], enc_to_move(s));
		if (s->phase == ENC_PH_A)
			hg_buf_printf(out, "Draws: %d of %d\n", s->draws_done, s->draws_needed);
		else if (s->phase == ENC_PH_B)
			hg_buf_printf(out, "Cards put down: %d of %d\n", s->puts, ENC_PUT_LIMIT);
	}
	for (int i = 0; i < s->nseats; i++)
		player(s, i, out);
	war(s, out);
	exchange(s, out);
	in_force(s, out);
}
