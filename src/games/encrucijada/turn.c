/* turn.c - set-up (rule 5) and the turn phases that are not war (rule 6):
 * A, draw; B, put down up to 4 cards; C and E, effects (effect-run.c);
 * F, end of the turn.  Also rule 3, the table: hidden cards stack in any
 * order and may go back to the hand, letting as many come down; visible
 * cards form the town and never move again. */
#include "config.h"

#include <string.h>

#include "enc.h"

static const char *const phase_names[] = {
	"set-up", "A (draw)", "B (put down)", "C (effects)", "D (war)", "E (effects)"
};

/* Who may act at all now: the target of an open exchange, the two sides of
 * a war, otherwise the player whose turn it is. */
int enc_may_act(const hg_state *s, int seat)
{
	if (s->over || !enc_alive(s, seat))
		return 0;
	if (s->ex.active)
		return seat == s->ex.target;
	if (s->war.stage != ENC_WAR_NONE)
		return seat == s->war.att || seat == s->war.def;
	return seat == s->current;
}

int enc_draw_done(const hg_state *s)
{
	return s->phase != ENC_PH_A;
}

/* rule 3: hidden cards are handled "en cualquier momento incluso durante
 * una Batalla" by whoever may act, once the draw is over. */
int enc_may_handle(const hg_state *s, int seat)
{
	if (!enc_may_act(s, seat) || s->phase == ENC_PH_SETUP)
		return 0;
	return enc_draw_done(s);
}

/* Says who may act instead, and why. */
static void not_your_turn(const hg_state *s, const hg_action *a, hg_diags *d)
{
	hg_diag *dg;
	if (s->ex.active) {
		dg = hg_diag_add(d, HG_ERROR, a->seat_pos, "enc.not-your-turn",
				 "%s cannot act while %s answers an effect (rule 2, Efectos)",
				 enc_seat_name(a->seat), enc_seat_name(s->ex.target));
		hg_diag_note(dg, "%s answers with effects, then writes 'pass'",
			     enc_seat_name(s->ex.target));
	} else if (s->war.stage != ENC_WAR_NONE) {
		dg = hg_diag_add(d, HG_ERROR, a->seat_pos, "enc.not-your-turn",
				 "%s takes no part in the war between %s and %s (rule 6.D1)",
				 enc_seat_name(a->seat), enc_seat_name(s->war.att),
				 enc_seat_name(s->war.def));
	} else {
		dg = hg_diag_add(d, HG_ERROR, a->seat_pos, "enc.not-your-turn",
				 "it is %s's turn, not %s's (rule 5)",
				 enc_seat_name(s->current), enc_seat_name(a->seat));
	}
	if (!enc_alive(s, a->seat))
		hg_diag_note(dg, "%s is out of the game", enc_seat_name(a->seat));
}

static int need_act(const hg_state *s, const hg_action *a, hg_diags *d)
{
	if (enc_may_act(s, a->seat))
		return 0;
	not_your_turn(s, a, d);
	return -1;
}

static int need_drawn(const hg_state *s, const hg_action *a, hg_diags *d)
{
	if (s->phase != ENC_PH_A)
		return 0;
	hg_diag *dg = hg_diag_add(d, HG_ERROR, a->pos, "enc.draw-short",
				  "%s has drawn %d of the %d cards of phase A (rule 6.A)",
				  enc_seat_name(s->current), s->draws_done, s->draws_needed);
	hg_diag_note(dg, "draw up to 6 cards in hand, or exactly 1 when holding 6 or more: 'draw 1', 'draw 2' or 'draw 3'");
	return -1;
}

/* ------------------------------------------------------------ set-up */
static void next_setup(hg_state *s)
{
	for (int k = s->current + 1; k < s->nseats; k++)
		if (enc_alive(s, k)) {
			s->current = k;
			return;
		}
	/* Everyone is ready: the first turn (rule 5, "Comienza el juego"). */
	for (int k = 0; k < s->nseats; k++)
		if (enc_alive(s, k)) {
			enc_start_turn(s, k);
			return;
		}
}

/* rule 5: "Todos los jugadores toman las primeras 6 cartas de una de sus
 * barajas y las colocan en su mesa Ocultas"; herald stacks them as stack
 * 'a', in pile order, and the player rearranges them with 'move'. */
int enc_apply_setup(hg_state *s, const hg_action *a, hg_diags *d)
{
	if (s->phase != ENC_PH_SETUP) {
		hg_diag_add(d, HG_ERROR, a->pos, "enc.setup",
			    "the set-up is over; %s has set up already (rule 5)",
			    enc_seat_name(a->seat));
		return -1;
	}
	if (a->seat != s->current) {
		hg_diag_add(d, HG_ERROR, a->seat_pos, "enc.not-your-turn",
			    "%s sets up now, not %s (rule 5: in seat order)",
			    enc_seat_name(s->current), enc_seat_name(a->seat));
		return -1;
	}
	int v[ENC_MAX_DECK];
	int n = enc_pile_list(s, a->seat, a->pile, v);
	int take = n < ENC_SETUP_CARDS ? n : ENC_SETUP_CARDS;
	if (a->nitems && a->nitems != take) {
		hg_diag_add(d, HG_ERROR, a->items[0].where, "enc.setup",
			    "the set-up takes %d cards from pile %d; the record names %d (rule 5)",
			    take, a->pile + 1, a->nitems);
		return -1;
	}
	for (int i = 0; i < take; i++) {
		const enc_item *it = i < a->nitems ? &a->items[i] : NULL;
		if (it && it->kind == ENC_ITEM_CARD &&
		    enc_identify(s, a->seat, v[i], it->card, it->where, d) != 0)
			return -1;
		enc_stack_insert(s, a->seat, v[i], 0, -1);
	}
	next_setup(s);
	return 0;
}

/* ------------------------------------------------------------ turns */
void enc_start_turn(hg_state *s, int seat)
{
	s->turn++;
	s->current = seat;
	s->phase = ENC_PH_A;
	enc_player *p = &s->p[seat];
	int hand = enc_zone_count(s, seat, ENC_Z_HAND);
	/* rule 6.A: up to 6 in hand, or exactly 1 when holding 6 or more. */
	s->draws_needed = hand >= ENC_HAND_TARGET ? 1 : ENC_HAND_TARGET - hand;
	/* Only without Resistir (the Objectives tag, rule 4) may the piles
	 * hold fewer: the player draws what is left. */
	int left = enc_zone_count(s, seat, ENC_Z_PILE);
	if (s->draws_needed > left)
		s->draws_needed = left;
	s->draws_done = 0;
	s->puts = 0;
	s->takes = s->moves = 0;
	s->war_done = 0;
	p->had_turn = 1;
	p->last_start = s->turn;
	if (s->draws_needed == 0)
		s->phase = ENC_PH_B;
	enc_expire_turn_start(s, seat);
}

int enc_draw_card(hg_state *s, int seat, int pile)
{
	int top = enc_pile_top(s, seat, pile);
	if (top < 0)
		return -1;
	enc_to_zone(s, seat, top, ENC_Z_HAND);
	return top;
}

int enc_apply_draw(hg_state *s, const hg_action *a, hg_diags *d)
{
	if (need_act(s, a, d) != 0)
		return -1;
	if (s->war.stage != ENC_WAR_NONE || s->ex.active || a->seat != s->current ||
	    s->phase != ENC_PH_A) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, a->pos, "enc.draw-extra",
					  hg_ngettext("%s draws only in phase A, and has drawn the %d card it needed (rule 6.A)",
						      "%s draws only in phase A, and has drawn the %d cards it needed (rule 6.A)",
						      (unsigned long)s->draws_needed),
					  enc_seat_name(a->seat), s->draws_needed);
		hg_diag_note(dg, "the turn is in phase %s", phase_names[s->phase]);
		return -1;
	}
	int top = enc_pile_top(s, a->seat, a->pile);
	if (top < 0) {
		hg_diag_add(d, HG_ERROR, a->pos, "enc.pile-empty",
			    "pile %d of %s is empty (rule 6.A)", a->pile + 1,
			    enc_seat_name(a->seat));
		return -1;
	}
	if (a->card >= 0 && enc_identify(s, a->seat, top, a->card, a->card_pos, d) != 0)
		return -1;
	enc_to_zone(s, a->seat, top, ENC_Z_HAND);
	if (++s->draws_done >= s->draws_needed)
		s->phase = ENC_PH_B;
	return 0;
}

/* The instance a hidden-card reference names (stack, 1-based position;
 * position 0 is the top), or -1. */
int enc_ref_inst(const hg_state *s, int seat, const enc_item *ref)
{
	return enc_stack_at(s, seat, ref->stack, ref->pos);
}

/* Is the stack an army fighting right now, of either side?  (legal()'s
 * sample leaves those alone.) */
int enc_stack_in_battle(const hg_state *s, int seat, int stack)
{
	if (s->war.stage == ENC_WAR_NONE)
		return 0;
	if (seat == s->war.att && stack == s->war.att_army)
		return 1;
	if (seat == s->war.def && stack == s->war.def_army)
		return 1;
	return 0;
}

static void ref_text(const enc_item *ref, hg_buf *b)
{
	hg_buf_clear(b);
	enc_format_ref(ref, b);
}

/* Finds the hidden card a reference names, with the diagnostics.  Any
 * hidden card will do: those of a blocked used army (ruling 5: a block
 * bars only choosing the army) and of the armies in the war (ruling 6:
 * "en cualquier momento incluso durante una Batalla"). */
static int hidden_at(const hg_state *s, int seat, const enc_item *ref, hg_diags *d)
{
	int inst = enc_ref_inst(s, seat, ref);
	if (inst < 0) {
		int n = enc_stack_count(s, seat, ref->stack);
		hg_buf b;
		hg_buf_init(&b);
		ref_text(ref, &b);
		hg_diag *dg = hg_diag_add(d, HG_ERROR, ref->where, "enc.no-card",
					  "%s has no hidden card at '%s' (rule 3)",
					  enc_seat_name(seat), b.data);
		hg_buf_free(&b);
		if (n)
			hg_diag_note(dg, hg_ngettext("stack '%c' holds %d card", "stack '%c' holds %d cards",
						     (unsigned long)n),
				     'a' + ref->stack, n);
		else
			hg_diag_note(dg, "%s has no stack '%c'", enc_seat_name(seat), 'a' + ref->stack);
		if (s->war.stage != ENC_WAR_NONE &&
		    ((seat == s->war.att && s->war.att_card >= 0) ||
		     (seat == s->war.def && s->war.def_card >= 0)))
			hg_diag_note(dg, "a card revealed in the war is no hidden card");
	}
	return inst;
}

static void note_hand(const hg_state *s, int seat, hg_diag *dg)
{
	int v[ENC_MAX_DECK];
	int n = enc_zone_list(s, seat, ENC_Z_HAND, v);
	hg_buf b;
	hg_buf_init(&b);
	for (int i = 0; i < n; i++)
		hg_buf_printf(&b, "%s%s", i ? ", " : "",
			      enc_card_id(s, s->p[seat].inst[v[i]].card));
	if (n)
		hg_diag_note(dg, "%s holds %s", enc_seat_name(seat), b.data);
	else
		hg_diag_note(dg, "%s holds no card", enc_seat_name(seat));
	hg_buf_free(&b);
}

/* The hand card an action names; -1 after a diagnostic. */
static int from_hand(hg_state *s, const hg_action *a, hg_diags *d)
{
	int inst = enc_hand_find(s, a->seat, a->card);
	if (inst == -3) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, a->card_pos, "enc.ambiguous-card",
					  "'?' does not say which card of %s's hand (rule 3)",
					  enc_seat_name(a->seat));
		hg_diag_note(dg, "'?' stands for a card the record has not seen; %s's hand is known",
			     enc_seat_name(a->seat));
		return -1;
	}
	if (inst < 0) {
		hg_diag *dg;
		if (a->card >= 0)
			dg = hg_diag_add(d, HG_ERROR, a->card_pos, "enc.not-in-hand",
					 "'%s' is not in %s's hand (rule 6.B)", enc_card_id(s, a->card),
					 enc_seat_name(a->seat));
		else
			dg = hg_diag_add(d, HG_ERROR, a->card_pos, "enc.not-in-hand",
					 "%s holds no card (rule 6.B)", enc_seat_name(a->seat));
		note_hand(s, a->seat, dg);
		return -1;
	}
	if (a->card >= 0 && s->p[a->seat].inst[inst].card < 0 &&
	    enc_identify(s, a->seat, inst, a->card, a->card_pos, d) != 0)
		return -1;
	if (a->card < 0 && s->p[a->seat].inst[inst].card < 0)
		s->p[a->seat].inst[inst].picked = 1;
	return inst;
}

/* rule 6.B: "Bajar HASTA 4 cartas"; and rule 3: a player who takes hidden
 * cards back "puede Bajar la misma cantidad de tu mano a la mesa en
 * cualquier posición ... en cualquier momento". */
int enc_apply_put(hg_state *s, const hg_action *a, hg_diags *d)
{
	if (need_act(s, a, d) != 0)
		return -1;
	enc_player *p = &s->p[a->seat];
	int regular = a->seat == s->current && s->war.stage == ENC_WAR_NONE && !s->ex.active &&
		      s->phase == ENC_PH_B && s->puts < ENC_PUT_LIMIT;
	if (!regular && a->seat == s->current && s->phase == ENC_PH_A &&
	    s->war.stage == ENC_WAR_NONE && !s->ex.active)
		return need_drawn(s, a, d);
	if (!regular && !(p->credits > 0 && enc_may_handle(s, a->seat))) {
		hg_diag *dg;
		if (a->seat == s->current && s->phase == ENC_PH_B && s->puts >= ENC_PUT_LIMIT)
			dg = hg_diag_add(d, HG_ERROR, a->pos, "enc.put-limit",
					 "%s has put down %d cards this turn; at most %d (rule 6.B)",
					 enc_seat_name(a->seat), s->puts, ENC_PUT_LIMIT);
		else
			dg = hg_diag_add(d, HG_ERROR, a->pos, "enc.phase",
					 "%s puts cards down in phase B; the turn is in phase %s (rule 6.B)",
					 enc_seat_name(a->seat),
					 s->war.stage != ENC_WAR_NONE ? "D (war)" : phase_names[s->phase]);
		hg_diag_note(dg, "outside phase B a player puts down only as many cards as it took back from its hidden stacks (rule 3)");
		return -1;
	}
	if (regular && enc_banned(s, a->seat, ENC_FORBID_PUT)) {
		hg_diag_add(d, HG_ERROR, a->pos, "enc.forbidden",
			    "an effect forbids %s to put cards down this turn (rule 2, Efectos)",
			    enc_seat_name(a->seat));
		return -1;
	}
	if (a->visible && a->card == -2) {
		hg_diag_add(d, HG_ERROR, a->card_pos, "enc.unnamed-card",
			    "a card put down visible is seen by all: name it (rule 3)");
		return -1;
	}
	int stack = -1, pos = 1;
	if (!a->visible) {
		if (a->has_ref) {
			stack = a->ref2.stack;
			pos = a->ref2.pos ? a->ref2.pos : 1;
			/* Any stack, a blocked or fighting one included: "en
			 * cualquier posición ... incluso durante una Batalla"
			 * (rulings 5 and 6). */
			/* the top is always a place: the stack is counted only
			 * for a place below it */
			int n = pos > 1 ? enc_stack_count(s, a->seat, stack) : 0;
			if (pos > n + 1) {
				hg_diag_add(d, HG_ERROR, a->ref2.where, "enc.no-card",
					    hg_ngettext("stack '%c' of %s holds %d card: a card goes in at position 1 to %d (rule 3)",
							"stack '%c' of %s holds %d cards: a card goes in at position 1 to %d (rule 3)",
							(unsigned long)n),
					    'a' + stack, enc_seat_name(a->seat), n, n + 1);
				return -1;
			}
		} else if ((stack = enc_free_stack(s, a->seat)) < 0) {
			hg_diag_add(d, HG_ERROR, a->pos, "enc.too-many-stacks",
				    "%s has %d hidden stacks already, 'a' to 'z'", enc_seat_name(a->seat),
				    ENC_MAX_STACKS);
			return -1;
		}
	}
	int inst = from_hand(s, a, d);
	if (inst < 0)
		return -1;
	if (a->visible)
		enc_to_zone(s, a->seat, inst, ENC_Z_TOWN);
	else
		enc_stack_insert(s, a->seat, inst, stack, pos);
	if (regular)
		s->puts++;
	else
		p->credits--;
	return 0;
}

/* Names the card a hidden reference turns up; unseen cards must be named. */
static int name_hidden(hg_state *s, const hg_action *a, int inst, hg_diags *d)
{
	enc_inst *c = &s->p[a->seat].inst[inst];
	if (a->card >= 0)
		return enc_identify(s, a->seat, inst, a->card, a->card_pos, d);
	if (c->card < 0) {
		hg_diag_add(d, HG_ERROR, a->pos, "enc.unnamed-card",
			    "the record has not seen this card of %s: name the card turned up",
			    enc_seat_name(a->seat));
		return -1;
	}
	return 0;
}

/* rule 3: a hidden card may be made visible "en cualquier momento incluso
 * durante una Batalla"; visible, it joins the town for good. */
int enc_apply_show(hg_state *s, const hg_action *a, hg_diags *d)
{
	if (need_act(s, a, d) != 0 || (s->phase == ENC_PH_A && need_drawn(s, a, d) != 0))
		return -1;
	if (s->phase == ENC_PH_SETUP) {
		hg_diag_add(d, HG_ERROR, a->pos, "enc.setup",
			    "the set-up puts every card down hidden (rule 5)");
		return -1;
	}
	int inst = hidden_at(s, a->seat, &a->ref, d);
	if (inst < 0)
		return -1;
	if (name_hidden(s, a, inst, d) != 0)
		return -1;
	enc_to_zone(s, a->seat, inst, ENC_Z_TOWN);
	return 0;
}

/* rule 3: "Se pueden llevar de la mesa a la mano". */
int enc_apply_take(hg_state *s, const hg_action *a, hg_diags *d)
{
	if (need_act(s, a, d) != 0 || (s->phase == ENC_PH_A && need_drawn(s, a, d) != 0))
		return -1;
	if (s->phase == ENC_PH_SETUP) {
		hg_diag_add(d, HG_ERROR, a->pos, "enc.setup",
			    "the set-up puts the six cards on the table (rule 5)");
		return -1;
	}
	int inst = hidden_at(s, a->seat, &a->ref, d);
	if (inst < 0)
		return -1;
	if (a->card >= 0 && enc_identify(s, a->seat, inst, a->card, a->card_pos, d) != 0)
		return -1;
	enc_to_zone(s, a->seat, inst, ENC_Z_HAND);
	s->p[a->seat].credits++;
	s->takes++;
	return 0;
}

/* rule 3: hidden cards "se pueden apilar en la cantidad y criterio que se
 * quiera"; and rule 6.D1, Formación.  A move is a card taken back and put
 * down again, which rule 3 allows "en cualquier momento incluso durante una
 * Batalla": a player arranges its hidden stacks whenever it may take one
 * back, and after its own set-up (ruling 5). */
int enc_apply_move(hg_state *s, const hg_action *a, hg_diags *d)
{
	int allowed;
	if (s->phase == ENC_PH_SETUP)
		allowed = a->seat < s->current;
	else
		allowed = enc_may_act(s, a->seat);
	if (!allowed) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, a->pos, "enc.not-now",
					  "%s cannot rearrange its hidden stacks now (rule 3; rule 6.D1, Formación)",
					  enc_seat_name(a->seat));
		hg_diag_note(dg, "stacks are arranged after one's set-up, in one's own turn, in a war one takes part in, and when answering an effect");
		return -1;
	}
	if (s->phase == ENC_PH_A && a->seat == s->current && need_drawn(s, a, d) != 0)
		return -1;
	int inst = hidden_at(s, a->seat, &a->ref, d);
	if (inst < 0)
		return -1;
	int to = a->ref2.stack, pos = a->ref2.pos ? a->ref2.pos : 1;
	int n = enc_stack_count(s, a->seat, to) - (a->ref.stack == to ? 1 : 0);
	if (pos > n + 1) {
		hg_diag_add(d, HG_ERROR, a->ref2.where, "enc.no-card",
			    hg_ngettext("stack '%c' of %s will hold %d card: a card goes in at position 1 to %d (rule 3)",
					"stack '%c' of %s will hold %d cards: a card goes in at position 1 to %d (rule 3)",
					(unsigned long)n),
			    'a' + to, enc_seat_name(a->seat), n, n + 1);
		return -1;
	}
	enc_stack_insert(s, a->seat, inst, to, pos);
	s->moves++;
	return 0;
}

/* rule 6.F: "Terminar el turno. Empieza el turno del siguiente jugador." */
int enc_apply_end(hg_state *s, const hg_action *a, hg_diags *d)
{
	if (need_act(s, a, d) != 0)
		return -1;
	if (s->phase == ENC_PH_SETUP) {
		hg_diag_add(d, HG_ERROR, a->pos, "enc.setup",
			    "the set-up is not over: %s sets up with 'setup 1', 'setup 2' or 'setup 3' (rule 5)",
			    enc_seat_name(s->current));
		return -1;
	}
	if (s->war.stage != ENC_WAR_NONE || s->ex.active || a->seat != s->current) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, a->pos, "enc.not-now",
					  s->ex.active ? "%s cannot end the turn while an effect waits for its answer (rule 6.F)"
						       : N_("%s cannot end the turn in the middle of a war (rule 6.F)"),
					  enc_seat_name(a->seat));
		if (s->war.stage != ENC_WAR_NONE)
			hg_diag_note(dg, "the attacker ends a war with 'regroup' (rule 6.D4)");
		return -1;
	}
	if (need_drawn(s, a, d) != 0)
		return -1;
	enc_expire_turn_end(s);
	for (int i = 0; i < s->nseats; i++) {
		s->p[i].wear = 0;
		s->p[i].credits = 0;
	}
	enc_start_turn(s, enc_next_seat(s, s->current));
	return 0;
}
