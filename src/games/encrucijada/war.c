/* war.c - rule 6.D, Guerra: D1 the declaration (the defender defends or
 * lets itself be invaded; the attacker may withdraw at any time), D2 the
 * battle (armies of hidden cards meet top card against top card; wear),
 * D3 the invasion (a target for each attacking card: a town card, an army
 * or the tower; invade and defence marks), D4 the regroup (used armies are
 * blocked for a round). */
#include "config.h"

#include <string.h>

#include "enc.h"

static const char *stage_name(int stage)
{
	switch (stage) {
	case ENC_WAR_DECLARED: return _("the declaration");
	case ENC_WAR_BATTLE: return _("the battle");
	case ENC_WAR_INVASION: return _("the invasion");
	default: return _("no war");
	}
}

/* Who the war waits for now. */
int enc_war_waiting(const hg_state *s)
{
	const enc_war *w = &s->war;
	switch (w->stage) {
	case ENC_WAR_DECLARED:
		return w->def;
	case ENC_WAR_BATTLE:
		if (w->att_army < 0 && w->att_card < 0)
			return w->att;
		if (w->def_army < 0 && w->def_card < 0)
			return w->def;
		if (w->att_card < 0)
			return w->att;
		if (w->def_card < 0)
			return w->def;
		return w->att;
	case ENC_WAR_INVASION:
		if (w->att_army < 0 && w->att_card < 0)
			return w->att;
		if (w->target == ENC_TGT_NONE)
			return w->def;
		if (w->att_card < 0)
			return w->att;
		if (w->target == ENC_TGT_ARMY && w->def_card < 0)
			return w->def;
		return w->att;
	}
	return -1;
}

static int war_error(const hg_state *s, const hg_action *a, const char *code,
		     const char *why, hg_diags *d)
{
	hg_diag *dg = hg_diag_add(d, HG_ERROR, a->pos, code, "%s (rule 6.D)", why);
	if (s->war.stage != ENC_WAR_NONE) {
		int w = enc_war_waiting(s);
		hg_diag_note(dg, "the war between %s and %s is at %s; it waits for %s",
			     enc_seat_name(s->war.att), enc_seat_name(s->war.def),
			     stage_name(s->war.stage), enc_seat_name(w));
	}
	return -1;
}

/* The common door of every war action: the right player, no exchange open,
 * the right stage. */
static int need_war(const hg_state *s, const hg_action *a, int who, unsigned stages,
		    hg_diags *d)
{
	if (s->over)
		return -1;
	if (s->ex.active) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, a->pos, "enc.not-now",
					  "an effect waits for %s's answer (rule 2, Efectos)",
					  enc_seat_name(s->ex.target));
		hg_diag_note(dg, "%s answers, then writes 'pass'", enc_seat_name(s->ex.target));
		return -1;
	}
	if (s->war.stage == ENC_WAR_NONE)
		return war_error(s, a, "enc.no-war", _("there is no war"), d);
	if (!(stages & (1u << s->war.stage))) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, a->pos, "enc.war-order",
					  "not during %s (rule 6.D)", stage_name(s->war.stage));
		hg_diag_note(dg, "the war waits for %s", enc_seat_name(enc_war_waiting(s)));
		return -1;
	}
	if (a->seat != who && (a->seat == s->war.att || a->seat == s->war.def)) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, a->pos, "enc.war-order",
					  "not now: the war waits for %s (rule 6.D)",
					  enc_seat_name(enc_war_waiting(s)));
		hg_diag_note(dg, "the war is at %s", stage_name(s->war.stage));
		if (s->war.stage == ENC_WAR_INVASION && s->war.target == ENC_TGT_NONE)
			hg_diag_note(dg, "the defender names the target of each attacking card before it is shown (rule 6.D3)");
		return -1;
	}
	if (a->seat != who) {
		hg_diag_add(d, HG_ERROR, a->seat_pos, "enc.not-your-turn",
			    "%s takes no part in the war between %s and %s (rule 6.D1)",
			    enc_seat_name(a->seat), enc_seat_name(s->war.att),
			    enc_seat_name(s->war.def));
		return -1;
	}
	return 0;
}

#define ST(x) (1u << (x))

/* -------------------------------------------------------- armies */
static int army_ok(const hg_state *s, int seat, int stack)
{
	if (enc_stack_count(s, seat, stack) == 0)
		return 0;
	return s->p[seat].stacks[stack].state != ENC_STACK_BLOCKED;
}

void enc_army_available(const hg_state *s, int seat, int stacks[ENC_MAX_STACKS], int *n)
{
	*n = 0;
	for (int st = 0; st < ENC_MAX_STACKS; st++)
		if (army_ok(s, seat, st))
			stacks[(*n)++] = st;
}

/* The side's used army of this war ("forman un Ejército de Usadas"),
 * created at the first winner that needs it. */
static int used_army(hg_state *s, int seat)
{
	int *used = seat == s->war.att ? &s->war.att_used : &s->war.def_used;
	int army = seat == s->war.att ? s->war.att_army : s->war.def_army;
	if (*used < 0 || *used == army) {
		int st = enc_free_stack(s, seat);
		if (st < 0)
			return -1;
		*used = st;
		s->p[seat].stacks[st].state = ENC_STACK_USED;
		s->p[seat].stacks[st].war = s->war.id;
	}
	return *used;
}

/* A card goes to its side's used army; with 26 stacks taken it goes to the
 * bottom of the army it came from (ruling 7). */
static void to_used(hg_state *s, int seat, int inst)
{
	int st = used_army(s, seat);
	if (st < 0)
		st = seat == s->war.att ? s->war.att_army : s->war.def_army;
	if (st < 0)
		enc_to_zone(s, seat, inst, ENC_Z_HAND);	/* no letter left at all */
	else
		enc_stack_insert(s, seat, inst, st, -1);
}

static void discard(hg_state *s, int seat, int inst)
{
	enc_to_zone(s, seat, inst, ENC_Z_DISCARD);
}

/* rule 6.D2: "Cada vez que se termina un Ejército, aumenta 1 el Desgaste". */
static void check_exhausted(hg_state *s)
{
	enc_war *w = &s->war;
	if (w->stage == ENC_WAR_NONE)
		return;
	if (w->def_army >= 0 && w->def_card < 0 && enc_stack_count(s, w->def, w->def_army) == 0) {
		s->p[w->def].wear++;
		s->p[w->def].exhausted++;
		w->def_army = -1;
		if (w->stage == ENC_WAR_INVASION && w->target == ENC_TGT_ARMY)
			w->target = ENC_TGT_NONE;
	}
	if (w->att_army >= 0 && w->att_card < 0 && enc_stack_count(s, w->att, w->att_army) == 0) {
		s->p[w->att].wear++;
		s->p[w->att].exhausted++;
		w->att_army = -1;
		w->again = 0;
		/* rule 6.D3: "Si el ejército actual Atacante se acaba ... se pasa
		 * inmediatamente a la Re agrupación." */
		if (w->stage == ENC_WAR_INVASION)
			enc_war_end(s);
	}
}

/* The seat's card revealed in the war now, or -1. */
int enc_duel_card(const hg_state *s, int seat)
{
	if (s->war.stage == ENC_WAR_NONE)
		return -1;
	if (seat == s->war.att)
		return s->war.att_card;
	if (seat == s->war.def)
		return s->war.def_card;
	return -1;
}

/* An army its owner has emptied with take, move or an effect's discard
 * (rulings 5 and 6) has run out like one that fought to its end. */
void enc_war_check_armies(hg_state *s)
{
	check_exhausted(s);
}

void enc_duel_deactivated(hg_state *s, int seat)
{
	enc_war *w = &s->war;
	if (seat == w->att && w->att_card >= 0) {
		enc_to_zone(s, seat, w->att_card, ENC_Z_HAND);
		w->att_card = -1;
		w->again = 0;
	} else if (seat == w->def && w->def_card >= 0) {
		enc_to_zone(s, seat, w->def_card, ENC_Z_HAND);
		w->def_card = -1;
	}
	check_exhausted(s);
}

/* rule 6.D4: the used armies of both sides are blocked for a round; the
 * defender blocks only its used cards. */
void enc_war_end(hg_state *s)
{
	enc_war *w = &s->war;
	if (w->stage == ENC_WAR_NONE)
		return;
	if (w->def_card >= 0) {
		/* Revealed but not fought: back on top of its army. */
		int st = w->def_army >= 0 ? w->def_army : enc_free_stack(s, w->def);
		if (st >= 0)
			enc_stack_insert(s, w->def, w->def_card, st, 1);
		else
			enc_to_zone(s, w->def, w->def_card, ENC_Z_HAND);
		w->def_card = -1;
	}
	if (w->att_card >= 0) {
		to_used(s, w->att, w->att_card);
		w->att_card = -1;
	}
	for (int side = 0; side < 2; side++) {
		int seat = side ? w->def : w->att;
		for (int st = 0; st < ENC_MAX_STACKS; st++) {
			enc_stack *k = &s->p[seat].stacks[st];
			if (k->state != ENC_STACK_USED || k->war != w->id)
				continue;
			if (enc_stack_count(s, seat, st) == 0) {
				memset(k, 0, sizeof *k);
				continue;
			}
			k->state = ENC_STACK_BLOCKED;
			s->stacks_blocked = 1;
			k->block_seat = (signed char)s->current;
			k->block_turn = s->turn;
		}
		s->p[seat].exhausted = 0;
	}
	int id = w->id;
	memset(w, 0, sizeof *w);
	w->stage = ENC_WAR_NONE;
	w->att_army = w->def_army = -1;
	w->att_card = w->def_card = -1;
	w->att_used = w->def_used = -1;
	w->target_inst = -1;
	enc_expire_war_end(s, id);
	if (s->phase == ENC_PH_D)
		s->phase = ENC_PH_E;
}

/* ------------------------------------------------------------ D1 */
int enc_war_can_declare(const hg_state *s, int seat, int def)
{
	if (def < 0 || def >= s->nseats || def == seat || !enc_alive(s, def))
		return 0;
	if (enc_teammates(s, seat, def))
		return 0;
	if (!s->p[def].had_turn)
		return 0;
	if (enc_banned(s, seat, ENC_FORBID_WAR))
		return 0;
	return s->current == seat && !s->war_done && s->war.stage == ENC_WAR_NONE &&
	       !s->ex.active && (s->phase == ENC_PH_B || s->phase == ENC_PH_C);
}

int enc_apply_war(hg_state *s, const hg_action *a, hg_diags *d)
{
	if (!enc_may_act(s, a->seat) || a->seat != s->current) {
		hg_diag_add(d, HG_ERROR, a->seat_pos, "enc.not-your-turn",
			    "%s declares war only in its own turn (rule 6.D1)",
			    enc_seat_name(a->seat));
		return -1;
	}
	if (s->phase == ENC_PH_A) {
		hg_diag_add(d, HG_ERROR, a->pos, "enc.draw-short",
			    "%s has drawn %d of the %d cards of phase A (rule 6.A)",
			    enc_seat_name(a->seat), s->draws_done, s->draws_needed);
		return -1;
	}
	if (s->war_done || s->phase > ENC_PH_C) {
		hg_diag_add(d, HG_ERROR, a->pos, "enc.war-twice",
			    "%s has had its war this turn (rule 6.D: phase D comes once)",
			    enc_seat_name(a->seat));
		return -1;
	}
	int def = a->other;
	if (def == a->seat || enc_teammates(s, a->seat, def)) {
		hg_diag_add(d, HG_ERROR, a->other_pos, "enc.war-ally",
			    "%s cannot declare war on %s, %s (rule 6.D1)",
			    enc_seat_name(a->seat), enc_seat_name(def),
			    def == a->seat ? "itself" : "an ally");
		return -1;
	}
	if (!enc_alive(s, def)) {
		hg_diag_add(d, HG_ERROR, a->other_pos, "enc.war-ally",
			    "%s is out of the game (rule 4)", enc_seat_name(def));
		return -1;
	}
	if (!s->p[def].had_turn) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, a->other_pos, "enc.war-first-round",
					  "%s has not had its first turn: no war on it in the first round (rule 6)",
					  enc_seat_name(def));
		hg_diag_note(dg, "\"Durante la primera vuelta del juego, no se puede Declarar la guerra a un jugador que no tuvo su primer turno\"");
		return -1;
	}
	if (enc_banned(s, a->seat, ENC_FORBID_WAR)) {
		hg_diag_add(d, HG_ERROR, a->pos, "enc.forbidden",
			    "an effect forbids %s to declare war this turn (rule 2, Efectos)",
			    enc_seat_name(a->seat));
		return -1;
	}
	enc_war *w = &s->war;
	memset(w, 0, sizeof *w);
	w->stage = ENC_WAR_DECLARED;
	w->id = ++s->wars;
	w->att = a->seat;
	w->def = def;
	w->att_army = w->def_army = -1;
	w->att_card = w->def_card = -1;
	w->att_used = w->def_used = -1;
	w->target_inst = -1;
	s->p[a->seat].exhausted = s->p[def].exhausted = 0;
	s->war_done = 1;
	s->phase = ENC_PH_D;
	return 0;
}

int enc_apply_defend(hg_state *s, const hg_action *a, hg_diags *d)
{
	if (need_war(s, a, s->war.def, ST(ENC_WAR_DECLARED), d) != 0)
		return -1;
	int v[ENC_MAX_STACKS], n;
	enc_army_available(s, a->seat, v, &n);
	if (n == 0) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, a->pos, "enc.no-army",
					  "%s has no army to defend with (rule 6.D2)",
					  enc_seat_name(a->seat));
		hg_diag_note(dg, "an army is a stack of hidden cards that is not blocked; without one, 'yield' lets the invasion in");
		return -1;
	}
	s->war.stage = ENC_WAR_BATTLE;
	return 0;
}

/* Has the seat an army it may still choose?  (A defender whose stacks an
 * effect took after it chose to defend has none: ruling 24.) */
static int army_left(const hg_state *s, int seat)
{
	int stacks[ENC_MAX_STACKS], n = 0;
	enc_army_available(s, seat, stacks, &n);
	return n > 0;
}

/* rule 6.D1: "O Dejarse Invadir"; rule 6.D2: a defender out of cards "puede
 * elegir otro Ejército o elije pasar a La Invasión" (ruling 24: an army run
 * out, or none left to choose). */
int enc_apply_yield(hg_state *s, const hg_action *a, hg_diags *d)
{
	if (need_war(s, a, s->war.def, ST(ENC_WAR_DECLARED) | ST(ENC_WAR_BATTLE), d) != 0)
		return -1;
	enc_war *w = &s->war;
	if (w->stage == ENC_WAR_BATTLE &&
	    (w->def_army >= 0 || w->def_card >= 0 ||
	     (s->p[a->seat].exhausted == 0 && army_left(s, a->seat)))) {
		hg_diag_add(d, HG_ERROR, a->pos, "enc.war-order",
			    "%s passes to the invasion only when its army is finished or it has none left (rule 6.D2; ruling 24)",
			    enc_seat_name(a->seat));
		return -1;
	}
	w->stage = ENC_WAR_INVASION;
	w->target = ENC_TGT_NONE;
	w->def_army = -1;
	/* rule 6.D3: "el Defensor comienza una cuenta nueva". */
	s->p[w->def].wear = 0;
	return 0;
}

int enc_apply_army(hg_state *s, const hg_action *a, hg_diags *d)
{
	enc_war *w = &s->war;
	int who = enc_war_waiting(s);
	if (w->stage != ENC_WAR_NONE && a->seat == w->def && w->stage == ENC_WAR_INVASION) {
		hg_diag_add(d, HG_ERROR, a->pos, "enc.war-order",
			    "in the invasion the defender sends an army with 'target army X' (rule 6.D3)");
		return -1;
	}
	if (need_war(s, a, who, ST(ENC_WAR_BATTLE) | ST(ENC_WAR_INVASION), d) != 0)
		return -1;
	int *army = a->seat == w->att ? &w->att_army : &w->def_army;
	int *card = a->seat == w->att ? &w->att_card : &w->def_card;
	if (*army >= 0 || *card >= 0) {
		hg_diag_add(d, HG_ERROR, a->pos, "enc.war-order",
			    "%s's army '%c' is still fighting (rule 6.D2)", enc_seat_name(a->seat),
			    *army >= 0 ? 'a' + *army : '?');
		return -1;
	}
	if (!army_ok(s, a->seat, a->army)) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, a->ref.where, "enc.no-army",
					  "stack '%c' of %s is no army it may send (rule 6.D4)",
					  'a' + a->army, enc_seat_name(a->seat));
		if (enc_stack_count(s, a->seat, a->army) == 0)
			hg_diag_note(dg, "%s has no stack '%c'", enc_seat_name(a->seat), 'a' + a->army);
		else
			hg_diag_note(dg, "a used army is blocked for a round after its war");
		return -1;
	}
	*army = a->army;
	int *used = a->seat == w->att ? &w->att_used : &w->def_used;
	if (*used == a->army) {
		/* "incluso el de Usadas": it fights again; new winners form a new
		 * used army. */
		*used = -1;
		s->p[a->seat].stacks[a->army].state = ENC_STACK_FREE;
	}
	return 0;
}

/* Reveals the top card of the seat's army: an inactive card goes back to
 * the hand and the next must be shown (rule 6.D2). */
int enc_apply_reveal(hg_state *s, const hg_action *a, hg_diags *d)
{
	enc_war *w = &s->war;
	int who = enc_war_waiting(s);
	if (need_war(s, a, who, ST(ENC_WAR_BATTLE) | ST(ENC_WAR_INVASION), d) != 0)
		return -1;
	int army = a->seat == w->att ? w->att_army : w->def_army;
	int *card = a->seat == w->att ? &w->att_card : &w->def_card;
	if (army < 0 || *card >= 0) {
		hg_diag_add(d, HG_ERROR, a->pos, "enc.war-order",
			    "%s has %s (rule 6.D2)", enc_seat_name(a->seat),
			    army < 0 ? "no army chosen: 'army X' first" : "a card revealed already");
		return -1;
	}
	int inst = enc_stack_at(s, a->seat, army, 1);
	if (inst < 0) {
		hg_diag_add(d, HG_ERROR, a->pos, "enc.war-order",
			    "%s's army is finished (rule 6.D2)", enc_seat_name(a->seat));
		return -1;
	}
	enc_inst *c = &s->p[a->seat].inst[inst];
	if (a->card >= 0) {
		if (enc_identify(s, a->seat, inst, a->card, a->card_pos, d) != 0)
			return -1;
	} else if (c->card < 0) {
		hg_diag_add(d, HG_ERROR, a->pos, "enc.unnamed-card",
			    "the record has not seen this card of %s: name the card revealed",
			    enc_seat_name(a->seat));
		return -1;
	}
	if (!enc_can_activate(s, a->seat, c->card)) {
		/* rule 6.D2: "Si no se puede Activar ... la carta va a la mano del
		 * dueño y debe mostrar la siguiente del Ejército." */
		enc_to_zone(s, a->seat, inst, ENC_Z_HAND);
		check_exhausted(s);
		return 0;
	}
	enc_to_zone(s, a->seat, inst, ENC_Z_DUEL);
	*card = inst;
	return 0;
}

/* ------------------------------------------------------------ fights */
/* rule 2, Valor: "la de Menor Valor es Descartada. La de mayor, si estaba
 * en un ejército se coloca Oculta al lado del mismo ... o si estaba en el
 * pueblo permanece. En un empate gana el atacante." */
static void duel(hg_state *s)
{
	enc_war *w = &s->war;
	int va = enc_value(s, w->att, w->att_card);
	int vd = enc_value(s, w->def, w->def_card);
	if (va >= vd) {
		discard(s, w->def, w->def_card);
		w->def_card = -1;
		if (w->again) {
			w->again = 0;	/* it stays, and attacks once more */
		} else {
			to_used(s, w->att, w->att_card);
			w->att_card = -1;
		}
	} else {
		discard(s, w->att, w->att_card);
		w->att_card = -1;
		w->again = 0;
		to_used(s, w->def, w->def_card);
		w->def_card = -1;
	}
}

int enc_apply_fight(hg_state *s, const hg_action *a, hg_diags *d)
{
	enc_war *w = &s->war;
	if (need_war(s, a, w->att, ST(ENC_WAR_BATTLE) | ST(ENC_WAR_INVASION), d) != 0)
		return -1;
	int ready = w->att_card >= 0;
	if (w->stage == ENC_WAR_BATTLE || w->target == ENC_TGT_ARMY)
		ready = ready && w->def_card >= 0;
	else
		ready = ready && w->target != ENC_TGT_NONE;
	if (!ready) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, a->pos, "enc.war-order",
					  "nothing to fight yet (rule 6.D2)");
		hg_diag_note(dg, "the war waits for %s", enc_seat_name(enc_war_waiting(s)));
		return -1;
	}
	if (w->stage == ENC_WAR_BATTLE) {
		duel(s);
		check_exhausted(s);
		return 0;
	}
	switch (w->target) {
	case ENC_TGT_TOWER: {
		/* rule 2, Valor, en la Atempus: "La carta que ataca la torre es de
		 * Valor 3, por lo tanto la Resistencia de Atempus -3"; the card goes
		 * to the used army (rule 6.D3) and never attacks again (no chained
		 * attacks on a tower). */
		int v = enc_value(s, w->att, w->att_card);
		enc_tower_of(s, w->def)->resistance -= v > 0 ? v : 0;
		s->loss_unchecked = 1;
		w->again = 0;
		to_used(s, w->att, w->att_card);
		w->att_card = -1;
		break;
	}
	case ENC_TGT_TOWN: {
		int va = enc_value(s, w->att, w->att_card);
		int vd = enc_value(s, w->def, w->target_inst);
		if (va >= vd) {
			discard(s, w->def, w->target_inst);
			if (w->again) {
				w->again = 0;
			} else {
				to_used(s, w->att, w->att_card);
				w->att_card = -1;
			}
		} else {
			discard(s, w->att, w->att_card);
			w->att_card = -1;
			w->again = 0;
		}
		/* rule 6.D3: "El Defensor aumenta su Desgaste POR CADA CARTA que
		 * usa." */
		s->p[w->def].wear++;
		break;
	}
	case ENC_TGT_ARMY:
		duel(s);
		break;
	}
	w->target = ENC_TGT_NONE;
	w->target_inst = -1;
	w->retargeted = w->forced = 0;
	check_exhausted(s);
	return 0;
}

/* ------------------------------------------------------------ D3 */
static int town_target(const hg_state *s, const hg_action *a, int seat, hg_diags *d)
{
	int inst = enc_town_find(s, seat, a->card, 0);
	if (inst < 0) {
		hg_diag_add(d, HG_ERROR, a->card_pos, "enc.not-in-town",
			    "'%s' is not in %s's town (rule 6.D3)", enc_card_id(s, a->card),
			    enc_seat_name(seat));
		return -1;
	}
	/* Prefer an active copy. */
	int v[ENC_MAX_DECK];
	int n = enc_zone_list(s, seat, ENC_Z_TOWN, v);
	for (int i = 0; i < n; i++)
		if (s->p[seat].inst[v[i]].card == a->card && enc_is_active(s, seat, v[i]))
			return v[i];
	hg_diag_add(d, HG_ERROR, a->card_pos, "enc.inactive",
		    "'%s' in %s's town is not active: its cost is not covered (rule 2, Costo)",
		    enc_card_id(s, a->card), enc_seat_name(seat));
	return -1;
}

/* rule 6.D3: "El Defensor escoge una carta Activa de su Pueblo o su Torre
 * Atempus como Objetivo para CADA CARTA del Ejército Atacante"; for the
 * town, before the attacker shows its card. */
int enc_apply_target(hg_state *s, const hg_action *a, hg_diags *d)
{
	enc_war *w = &s->war;
	if (need_war(s, a, w->def, ST(ENC_WAR_INVASION), d) != 0)
		return -1;
	if (w->att_army < 0 && w->att_card < 0) {
		hg_diag_add(d, HG_ERROR, a->pos, "enc.war-order",
			    "%s has not chosen its attacking army yet (rule 6.D3)",
			    enc_seat_name(w->att));
		return -1;
	}
	if (w->target != ENC_TGT_NONE) {
		hg_diag_add(d, HG_ERROR, a->pos, "enc.war-order",
			    "the attacking card has its target already (rule 6.D3)");
		return -1;
	}
	switch (a->tgt) {
	case ENC_TGT_TOWER:
		w->target = ENC_TGT_TOWER;
		break;
	case ENC_TGT_TOWN: {
		int inst = town_target(s, a, a->seat, d);
		if (inst < 0)
			return -1;
		w->target = ENC_TGT_TOWN;
		w->target_inst = inst;
		break;
	}
	case ENC_TGT_ARMY:
		if (w->def_card >= 0 || !army_ok(s, a->seat, a->army) ||
		    (a->army == w->def_army && enc_stack_count(s, a->seat, a->army) == 0)) {
			hg_diag_add(d, HG_ERROR, a->ref.where, "enc.no-army",
				    "stack '%c' of %s is no army it may send (rule 6.D3)",
				    'a' + a->army, enc_seat_name(a->seat));
			return -1;
		}
		if (w->def_used == a->army) {
			w->def_used = -1;
			s->p[a->seat].stacks[a->army].state = ENC_STACK_FREE;
		}
		w->target = ENC_TGT_ARMY;
		w->def_army = a->army;
		break;
	}
	w->retargeted = w->forced = 0;
	return 0;
}

static int invading_card(const hg_state *s, const hg_action *a, hg_diags *d)
{
	const enc_war *w = &s->war;
	if (w->target != ENC_TGT_TOWN || w->att_card < 0) {
		hg_diag_add(d, HG_ERROR, a->pos, "enc.war-order",
			    "only when a revealed attacking card attacks the town (rule 2, Invasión)");
		return -1;
	}
	if (!(enc_marks(s, w->att, w->att_card) & ENC_MARK_INVADE)) {
		hg_diag_add(d, HG_ERROR, a->pos, "enc.no-invade",
			    "'%s' has no INVADE mark (rule 2, Invasión)",
			    enc_card_id(s, s->p[w->att].inst[w->att_card].card));
		return -1;
	}
	return 0;
}

/* rule 2, Invasión: "Las cartas con INVADE, al atacar el Pueblo, pueden
 * cambiar de Objetivo y escoger otra cualquiera del mismo Pueblo." */
int enc_apply_retarget(hg_state *s, const hg_action *a, hg_diags *d)
{
	enc_war *w = &s->war;
	if (need_war(s, a, w->att, ST(ENC_WAR_INVASION), d) != 0 ||
	    invading_card(s, a, d) != 0)
		return -1;
	if (w->retargeted || w->forced) {
		hg_diag_add(d, HG_ERROR, a->pos, "enc.war-order",
			    "the target %s already (rule 2, Invasión)",
			    w->forced ? "was forced by the defender" : "was changed once");
		return -1;
	}
	int inst = town_target(s, a, w->def, d);
	if (inst < 0)
		return -1;
	w->target_inst = inst;
	w->retargeted = 1;
	return 0;
}

/* rule 2, Invasión: "Pero el Defensor podrá obligarlo a atacar una de las
 * suyas que diga DEFENSA (se puede activar una Oculta)." */
int enc_apply_force(hg_state *s, const hg_action *a, hg_diags *d)
{
	enc_war *w = &s->war;
	if (need_war(s, a, w->def, ST(ENC_WAR_INVASION), d) != 0 ||
	    invading_card(s, a, d) != 0)
		return -1;
	if (w->forced) {
		hg_diag_add(d, HG_ERROR, a->pos, "enc.war-order",
			    "the defender has forced the target already (rule 2, Invasión)");
		return -1;
	}
	int inst;
	if (a->has_ref) {
		inst = enc_ref_inst(s, a->seat, &a->ref);
		if (inst < 0) {
			hg_diag_add(d, HG_ERROR, a->ref.where, "enc.no-card",
				    "%s has no hidden card it may turn up there (rule 3)",
				    enc_seat_name(a->seat));
			return -1;
		}
		enc_inst *c = &s->p[a->seat].inst[inst];
		if (a->card >= 0 && enc_identify(s, a->seat, inst, a->card, a->card_pos, d) != 0)
			return -1;
		if (c->card < 0) {
			hg_diag_add(d, HG_ERROR, a->ref.where, "enc.unnamed-card",
				    "the record has not seen this card of %s: name the card turned up",
				    enc_seat_name(a->seat));
			return -1;
		}
		if (!(s->data->pool.cards[c->card].marks & ENC_MARK_DEFENCE)) {
			hg_diag_add(d, HG_ERROR, a->ref.where, "enc.no-defence",
				    "'%s' has no DEFENCE mark (rule 2, Invasión)", enc_card_id(s, c->card));
			return -1;
		}
		enc_to_zone(s, a->seat, inst, ENC_Z_TOWN);
		if (!enc_is_active(s, a->seat, inst)) {
			hg_diag_add(d, HG_ERROR, a->ref.where, "enc.inactive",
				    "'%s' does not activate: its cost is not covered (rule 2, Costo)",
				    enc_card_id(s, c->card));
			return -1;	/* the caller restores the state */
		}
	} else {
		inst = town_target(s, a, a->seat, d);
		if (inst < 0)
			return -1;
		if (!(enc_marks(s, a->seat, inst) & ENC_MARK_DEFENCE)) {
			hg_diag_add(d, HG_ERROR, a->card_pos, "enc.no-defence",
				    "'%s' has no DEFENCE mark (rule 2, Invasión)", enc_card_id(s, a->card));
			return -1;
		}
	}
	w->target_inst = inst;
	w->forced = 1;
	return 0;
}

/* ------------------------------------------------------------ D4 */
/* rule 6.D1: "El Atacante puede retirar la declaración de guerra en
 * cualquier momento y al hacerlo salta a la Re agrupación"; rule 6.D4: "Si
 * el Atacante retiró su ejército antes de terminarlo, debe colocarlo entero
 * en las Usadas." */
int enc_apply_regroup(hg_state *s, const hg_action *a, hg_diags *d)
{
	enc_war *w = &s->war;
	if (need_war(s, a, w->att,
		     ST(ENC_WAR_DECLARED) | ST(ENC_WAR_BATTLE) | ST(ENC_WAR_INVASION), d) != 0)
		return -1;
	if (w->att_card >= 0) {
		to_used(s, w->att, w->att_card);
		w->att_card = -1;
	}
	if (w->att_army >= 0) {
		int v[ENC_MAX_DECK];
		int n = enc_stack_list(s, w->att, w->att_army, v);
		for (int i = 0; i < n; i++)
			to_used(s, w->att, v[i]);
	}
	enc_war_end(s);
	return 0;
}
