/* pending.c - Crusader Kingdoms' attacks held pending while the other
 * seats answer (rule 4.1; herald-move(1), PENDING ACTIONS).
 *
 * Step 1 declares the target, step 2 puts the attacker's troops and
 * responses face down: the attacker's move.  Step 3 ("Cualquier jugador
 * ... puede colocar (boca abajo) las cartas de Respuesta que desee") and
 * step 4 (the defender turns +1 castles) are the answers of the other
 * seats, each a step of its own:
 *
 *   pass | respond CARD attack|defence {CARD attack|defence} [turn AREA...]
 *        | turn AREA...
 *
 * Three actions hold such an attack: a player's attack, the attack an
 * event starts ("play CARD ... attack ..."), and the army of a side no
 * player controls ("reveal CARD ... / DIE attack ...", rule 8.3), whose
 * part herald writes from the script when its round comes (master.c).
 * What comes before the attack's word is the action's prefix, kept as it
 * was declared.
 *
 * Awaited are the seats a player holds, other than the attacker's, that
 * could answer by what every seat knows: a seat with a card in hand (its
 * cards are hidden: whether one is a response is not), the defender with
 * a +1 castle next to the target; a seat that passed for the turn under
 * 8.2 only when it may turn castles.  When none, the action is whole, as
 * it always was.  When the last answer is in, the action is written in the
 * notation of every record ("& seat card side", "turn"), its dice rolled
 * from the seed in the position where the attack begins (after the event's
 * effects, after the army's card and die).
 *
 * Short of memory inside a unit of work (the game master's calls) every
 * callback here frees what it built and fails (-1; the core makes it
 * HG_ENOMEM): an action parsed, a position copied or a step read once the
 * unit has lost an allocation is dropped, never used. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ck.h"

static const hg_pos no_pos = { NULL, 0, 0 };

/* The faction a player holds named `seat`, or -1. */
static int player_faction(const hg_state *s, const char *seat)
{
	int f = hg_names_find(s->sc->seats, seat);
	return f >= 0 && s->sc->factions[f].player ? f : -1;
}

/* The action, or NULL (after a diagnostic, or short of memory: body NULL
 * is a text that could not be built). */
static hg_action *parse_body(const hg_state *s, const char *seat, const char *body, hg_diags *d)
{
	if (!body || hg_alloc_lost())
		return NULL;
	hg_action_text t;
	memset(&t, 0, sizeof t);
	hg_action *a = NULL;
	if (hg_action_text_set(&t, seat, body, no_pos, d) == 0)
		a = ck_parse(s, &t, d);
	hg_action_text_free(&t);
	if (a && hg_alloc_lost()) {
		ck_free_action(a);
		a = NULL;
	}
	return a;
}

/* A copy of s, or NULL short of memory. */
static hg_state *copy_of(const hg_state *s)
{
	hg_state *c = hg_ck_class.clone(s);
	if (c && hg_alloc_lost()) {
		hg_ck_class.free_state(c);
		c = NULL;
	}
	return c;
}

/* The +1 castles of `defender` next to `target`: those step 4 may turn. */
static uint64_t turnable(const hg_state *s, int defender, int target)
{
	uint64_t m = 0;
	if (defender < 0)
		return 0;
	for (int y = 0; y < s->map->nareas; y++)
		if (s->owner[y] == defender && s->plus1[y] && ck_borders(s, y, target))
			m |= (uint64_t)1 << y;
	return m;
}

/* The attack's word in an action's text: the text's first, or the first
 * after a space (an area, a card or a seat is never named "attack"); NULL
 * when there is none (an attack in Spanish, which is not held pending). */
static const char *attack_word(const char *body)
{
	if (strncmp(body, "attack ", 7) == 0)
		return body;
	const char *at = strstr(body, " attack ");
	return at ? at + 1 : NULL;
}

/* The attack in an action: its own, an event's, a scripted army's; NULL. */
static ck_attack *attack_of(hg_action *a)
{
	switch (a->kind) {
	case CK_ACT_ATTACK:
		return &a->attack;
	case CK_ACT_PLAY:
		return a->play.has_attack ? &a->play.attack : NULL;
	case CK_ACT_REVEAL:
		return a->rev.has_attack ? &a->rev.attack : NULL;
	default:
		return NULL;
	}
}

/* The position where a's attack begins (a clone, after the event's
 * effects or the army's card and die), with the event's attack effect and
 * whether the army attacks; NULL when the action does not get that far
 * (the engine says why when the whole action is applied). */
static hg_state *attack_base(const hg_state *s, const hg_action *a, const ck_effect **fx,
			     int *army)
{
	*fx = NULL;
	*army = 0;
	hg_state *c = copy_of(s);
	if (!c)
		return NULL;
	hg_diags quiet;
	hg_diags_init(&quiet);
	int rc = 0;
	if (a->kind == CK_ACT_PLAY) {
		*fx = ck_play_attack_effect(s, a);
		rc = ck_play_before_attack(c, a, &quiet);
	} else if (a->kind == CK_ACT_REVEAL) {
		*army = 1;
		rc = ck_reveal_before_attack(c, a, &quiet);
	}
	hg_diags_free(&quiet);
	if (rc != 0 || hg_alloc_lost()) {
		hg_ck_class.free_state(c);
		return NULL;
	}
	return c;
}

/* May faction g answer f's attack on target (by what every seat knows)? */
static int may_answer(const hg_state *s, int f, int g, int target)
{
	if (g == f || !s->sc->factions[g].player)
		return 0;
	int done = s->sc->final_pass && ((s->passed >> g) & 1);
	int castles = g == s->owner[target] && turnable(s, g, target);
	return castles || (!done && s->p[g].hand.size > 0);
}

int ck_attack_decides_for_others(const hg_state *s, const hg_action *a)
{
	const ck_attack *at = attack_of((hg_action *)a);
	if (!at || a->kind == CK_ACT_REVEAL || ck_scripted(s, a->seat))
		return 0;
	int others = at->nturned > 0;
	for (int i = 0; i < at->nresp && !others; i++)	/* (a script's answer is herald's) */
		others = at->resp[i].seat != a->seat && !ck_scripted(s, at->resp[i].seat);
	int answers = 0;
	for (int g = 0; g < s->nsides && others && !answers; g++)
		answers = may_answer(s, a->seat, g, at->target);
	return answers;
}

/* The position where an event's or an army's attack begins (attack_base),
 * for what the other seats may answer with there: a card Seducción took
 * from a hand is no longer in it.  NULL for a player's attack (the
 * position itself), or when the action does not get that far. */
static hg_state *answer_base(const hg_state *s, const hg_action *a)
{
	const ck_effect *fx;
	int army;
	return a->kind == CK_ACT_ATTACK ? NULL : attack_base(s, a, &fx, &army);
}

/* The attacker's decided part (before the attack's first " / "), and the
 * castle it wants on a win ("won castle AREA" in what it wrote), or NULL.
 * Short of memory the part is NULL (*castle too). */
static char *decided_part(const char *body, char **castle)
{
	const char *word = attack_word(body);
	const char *slash = strstr(word ? word : body, " / ");
	size_t n = slash ? (size_t)(slash - body) : strlen(body);
	while (n && body[n - 1] == ' ')
		n--;
	*castle = NULL;
	const char *want = slash ? strstr(slash, "won castle ") : NULL;
	if (want) {
		want += strlen("won castle ");
		size_t k = strcspn(want, " /");
		if (k)
			*castle = hg_try_strndup(want, k);
	}
	char *part = hg_try_strndup(body, n);
	if (!part) {
		free(*castle);
		*castle = NULL;
	}
	return part;
}

/* A step's words: its responses ("& SEAT CARD SIDE" each) into resp, its
 * castles (" AREA" each) into turns; *cards the responses.  0, or -1
 * after a diagnostic (ck.pending-step) or short of memory. */
static int read_step(const char *seat, const char *text, hg_buf *resp, hg_buf *turns, int *cards,
		     hg_diags *d)
{
	*cards = 0;
	char *copy = hg_try_strdup(text), *save = NULL;
	if (!copy)
		return -1;
	enum { START, CARD, SIDE, TURN, PASSED } at = START;
	int ok = 1, nturns = 0;
	char *card = NULL;
	for (char *w = strtok_r(copy, " \t\n", &save); w && ok; w = strtok_r(NULL, " \t\n", &save)) {
		if (strpbrk(w, "/&:?=<>")) {
			ok = 0;	/* a name, not a piece of the attack's notation */
			break;
		}
		if (at == START && hg_name_eq(w, "pass"))
			at = PASSED;
		else if (at == START && hg_name_eq(w, "respond"))
			at = CARD;
		else if ((at == START || at == CARD) && hg_name_eq(w, "turn") && (at == START || *cards))
			at = TURN;
		else if (at == CARD && *cards && hg_name_eq(w, "turn"))
			at = TURN;
		else if (at == CARD) {
			card = w;
			at = SIDE;
		} else if (at == SIDE) {
			if (!hg_name_eq(w, "attack") && !hg_name_eq(w, "defence") &&
			    !hg_name_eq(w, "defense")) {
				ok = 0;
				break;
			}
			hg_buf_printf(resp, " & %s %s %s", seat, card, w);
			++*cards;
			at = CARD;
		} else if (at == TURN) {
			hg_buf_printf(turns, " %s", w);
			nturns++;
		} else {
			ok = 0;
		}
	}
	if (at == START || at == SIDE || (at == CARD && !*cards) || (at == TURN && !nturns))
		ok = 0;
	free(copy);
	if (!ok) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, no_pos, "ck.pending-step",
					  "'%s' is no answer to the attack: write 'pass', 'respond CARD attack|defence ...' or 'turn AREA ...' (rule 4.1, steps 3 and 4)",
					  text);
		hg_diag_note(dg, "herald-move(1), PENDING ACTIONS");
	}
	return ok ? 0 : -1;
}

/* 8.3: a side no player controls answers an attack of 3 dice or more on
 * its area with its first face-up response; the script's answer is added
 * to the attack's text (the responses so far, before its turns). */
static void scripted_answer(const hg_state *s, const char *seat, hg_buf *text,
			    const char *turns)
{
	hg_buf probe;
	hg_buf_init(&probe);
	hg_buf_printf(&probe, "%s%s%s / ? vs ? / lost", text->data ? text->data : "",
		      *turns ? " turn" : "", turns);
	hg_diags quiet;
	hg_diags_init(&quiet);
	hg_action *a = hg_buf_failed(&probe) ? NULL : parse_body(s, seat, probe.data, &quiet);
	hg_diags_free(&quiet);
	hg_buf_free(&probe);
	const ck_attack *at = a ? attack_of(a) : NULL;
	int defender = at ? s->owner[at->target] : -1;
	if (ck_scripted(s, defender)) {
		const ck_effect *fx;
		int army;
		hg_state *base = attack_base(s, a, &fx, &army);
		if (base) {
			int counts[2];
			ck_dice_counts(base, a->seat, at, fx, army, counts);
			int due = ck_script_response(base, defender, at->target, counts[0]);
			if (due >= 0) {
				ck_cardref x = base->p[defender].tab.reserve[due];
				hg_buf_printf(text, " & %s %s defence", s->sc->factions[defender].id,
					      ck_card_at(s, x.religion, x.card)->id);
			}
			hg_ck_class.free_state(base);
		}
	}
	if (a)
		ck_free_action(a);
}

/* Does `body` apply in position s?  (On a copy: s is left as it is.) */
static int applies(const hg_state *s, const char *seat, const char *body, hg_diags *d)
{
	hg_action *a = parse_body(s, seat, body, d);
	if (!a)
		return -1;
	hg_state *c = copy_of(s);
	int rc = c ? hg_ck_class.apply(c, a, d) : -1;
	if (c)
		hg_ck_class.free_state(c);
	ck_free_action(a);
	return hg_alloc_lost() ? -1 : rc;
}

/* The whole attack: the attacker's part, every answer (and `extra_seat`'s
 * step `extra`, not yet in p), rolled from the seed; the outcome the dice
 * give, with the attacker's choice after a win (the castle it named, else
 * the bonus, else a castle in the area won).  0 with body set, or -1 after
 * the engine's diagnostics or short of memory. */
static int whole_attack(const hg_state *s, const hg_pending *p, const char *extra_seat,
			const char *extra, hg_buf *body, hg_diags *d)
{
	char *castle;
	char *decided = decided_part(p->parts[0].text ? p->parts[0].text : "", &castle);
	hg_buf text, resp, turns;
	hg_buf_init(&text);
	hg_buf_init(&resp);
	hg_buf_init(&turns);
	hg_buf_puts(&text, decided ? decided : "");
	int rc = decided ? 0 : -1, cards;
	for (size_t i = 1; i <= p->nparts && rc == 0; i++) {
		const char *seat = i < p->nparts ? p->parts[i].seat : extra_seat;
		const char *step = i < p->nparts ? p->parts[i].text : extra;
		if (!seat || !step || (i < p->nparts && extra_seat && strcmp(seat, extra_seat) == 0))
			continue;	/* (a seat's new step replaces its old) */
		rc = read_step(seat, step, &resp, &turns, &cards, d);
	}
	if (resp.len)
		hg_buf_puts(&text, resp.data);
	if (rc == 0)
		scripted_answer(s, p->seat, &text, turns.data ? turns.data : "");
	if (turns.len)
		hg_buf_printf(&text, " turn%s", turns.data);
	hg_buf_puts(&text, " / ? vs ? / lost");
	hg_action *a = rc == 0 && !hg_buf_failed(&text) ? parse_body(s, p->seat, text.data, d) : NULL;
	const ck_attack *at = a ? attack_of(a) : NULL;
	const ck_effect *fx = NULL;
	int army = 0;
	hg_state *base = at ? attack_base(s, a, &fx, &army) : NULL;
	rc = a ? 0 : -1;
	hg_action rolled;
	ck_attack *rat = NULL;
	if (base) {
		rolled = *a;
		rolled.home = NULL;
		rat = attack_of(&rolled);
	}
	if (rat) {
		for (int side = 0; side < 2; side++) {
			memset(&rat->roll[side], 0, sizeof rat->roll[side]);
			rat->roll[side].hits = -1;
		}
		rat->choice = CK_CHOICE_NONE;
		ck_attack_roll(base, a->seat, rat, fx, army);
		hg_buf who, written;
		hg_buf_init(&who);
		hg_buf_init(&written);
		ck_format(s, &rolled, &who, &written);
		/* the choices after a win, in order; "" for none */
		const char *target = s->map->areas[at->target].id;
		hg_buf choice[3];
		int nchoice = 0;
		if (!rat->won || !s->sc->bonus_from_conquest) {
			hg_buf_init(&choice[nchoice++]);
		} else {
			if (castle) {
				hg_buf_init(&choice[nchoice]);
				hg_buf_printf(&choice[nchoice++], " castle %s", castle);
			}
			hg_buf_init(&choice[nchoice]);
			hg_buf_puts(&choice[nchoice++], " bonus");
			hg_buf_init(&choice[nchoice]);
			hg_buf_printf(&choice[nchoice++], " castle %s", target);
		}
		rc = -1;
		for (int k = 0; k < nchoice && rc != 0 && !hg_alloc_lost(); k++) {
			hg_buf_clear(body);
			hg_buf_puts(body, written.data ? written.data : "");
			if (choice[k].len)
				hg_buf_puts(body, choice[k].data);
			hg_diags quiet;
			hg_diags_init(&quiet);
			rc = applies(s, p->seat, hg_buf_failed(body) ? NULL : body->data, &quiet);
			if (rc != 0 && k == nchoice - 1)
				hg_diags_move(d, &quiet);
			hg_diags_free(&quiet);
		}
		for (int k = 0; k < nchoice; k++)
			hg_buf_free(&choice[k]);
		for (int side = 0; side < 2; side++) {
			free(rat->roll[side].dice);
			free(rat->roll[side].mods);
		}
		hg_buf_free(&who);
		hg_buf_free(&written);
	} else if (a && !hg_alloc_lost()) {
		rc = applies(s, p->seat, text.data, d);	/* for the engine's diagnostic */
		if (rc == 0) {
			hg_diag_add(d, HG_ERROR, no_pos, "ck.pending-step",
				    "the action held pending no longer attacks (rule 4.1)");
			rc = -1;
		}
	}
	if (base)
		hg_ck_class.free_state(base);
	if (a)
		ck_free_action(a);
	free(decided);
	free(castle);
	hg_buf_free(&text);
	hg_buf_free(&resp);
	hg_buf_free(&turns);
	return hg_alloc_lost() ? -1 : rc;
}

/* An event that draws, takes or discards as well as attacking has chance
 * of its own before the attack (none of the bundled decks' does): it is
 * written whole. */
static int event_has_chance(const hg_action *a)
{
	const ck_play *pl = &a->play;
	return a->kind == CK_ACT_PLAY &&
	       (pl->draws.given || pl->takes.given || pl->discards.given);
}

int ck_pending_open(const hg_state *s, const char *seat, const char *body, hg_pending *p,
		    hg_diags *d)
{
	int f = hg_names_find(s->sc->seats, seat);
	int scripted = ck_scripted(s, f);
	if (f < 0 || !(scripted || s->sc->factions[f].player) || !attack_word(body))
		return 0;
	char *castle;
	char *decided = decided_part(body, &castle);
	if (scripted) {
		free(castle);	/* the script's choice: herald's, after the dice */
		castle = NULL;
	}
	hg_buf probe;
	hg_buf_init(&probe);
	hg_buf_printf(&probe, "%s / ? vs ? / lost", decided ? decided : "");
	hg_diags quiet;
	hg_diags_init(&quiet);
	hg_action *a = !decided || hg_buf_failed(&probe) ? NULL :
		       parse_body(s, seat, probe.data, &quiet);
	hg_diags_free(&quiet);
	hg_buf_free(&probe);
	int rc = 0;
	if (hg_alloc_lost()) {
		rc = -1;
		goto out;
	}
	const ck_attack *at = a ? attack_of(a) : NULL;
	if (!at || event_has_chance(a) || (a->kind == CK_ACT_REVEAL) != scripted)
		goto out;	/* the engine says why, as for any action */
	hg_state *base = answer_base(s, a);
	if (!base && hg_alloc_lost()) {
		rc = -1;
		goto out;
	}
	for (int g = 0; g < s->nsides && rc == 0; g++)
		if (may_answer(base ? base : s, f, g, at->target))
			rc = hg_pending_await(p, s->sc->factions[g].id);
	if (base)
		hg_ck_class.free_state(base);
	if (rc != 0 || p->nawaited == 0)
		goto out;	/* no one else may answer: the action is whole */
	/* a scripted army's cards are on the table, face up (8.3) */
	int own = scripted ? 0 : at->nwith;
	ck_response mine[CK_MAX_LIST];
	int nmine = 0;
	for (int i = 0; i < at->nresp; i++) {
		if (ck_scripted(s, at->resp[i].seat))
			continue;	/* the script's answer: herald writes it again */
		if (at->resp[i].seat == f && nmine < CK_MAX_LIST) {
			mine[nmine++] = at->resp[i];
			own++;
			continue;
		}
		if (scripted)
			continue;	/* the players answer for themselves */
		const char *other = s->sc->factions[at->resp[i].seat].id;
		hg_diag *dg = hg_diag_add(d, HG_ERROR, no_pos, "master.seat",
					  "a response of %s is %s's to give, face down, not %s's (rule 4.1, step 3)",
					  other, other, seat);
		hg_diag_note(dg, "write the attack without it: herald asks %s for its answer", other);
		rc = -1;
		goto out;
	}
	if (at->nturned && !scripted) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, no_pos, "master.seat",
					  "the castles turned are the defender's to turn, not %s's (rule 4.1, step 4)",
					  seat);
		hg_diag_note(dg, "write the attack without 'turn': herald asks the defender");
		rc = -1;
		goto out;
	}
	/* the attacker's part in canonical spelling, its own responses only */
	hg_action own_part = *a;
	own_part.home = NULL;
	ck_attack *own_attack = attack_of(&own_part);
	own_attack->resp = mine;
	own_attack->nresp = nmine;
	own_attack->nturned = 0;
	hg_buf who, canon, part;
	hg_buf_init(&who);
	hg_buf_init(&canon);
	hg_buf_init(&part);
	ck_format(s, &own_part, &who, &canon);
	char *unused;
	char *canon_decided = decided_part(canon.data ? canon.data : "", &unused);
	free(unused);
	hg_buf_free(&who);
	hg_buf declared;
	hg_buf_init(&declared);
	if (canon_decided) {
		hg_buf_puts(&part, canon_decided);
		if (castle)
			hg_buf_printf(&part, " / ? vs ? / won castle %s", castle);
		/* what everyone sees: the action up to its attack (the event
		 * shown, the army's card and die), the target and where from */
		const char *word = attack_word(canon_decided);
		if (word)
			hg_buf_printf(&declared, "%.*s", (int)(word - canon_decided), canon_decided);
		hg_buf_printf(&declared, "attack %s", s->map->areas[at->target].id);
		if (at->from >= 0)
			hg_buf_printf(&declared, " from %s", s->map->areas[at->from].id);
	}
	free(canon_decided);
	hg_buf_free(&canon);
	if (!hg_alloc_lost()) {
		p->seat = hg_try_strdup(s->sc->factions[f].id);
		p->declared = hg_try_strdup(declared.data ? declared.data : "");
	}
	hg_buf_free(&declared);
	if (!p->seat || !p->declared || hg_alloc_lost() ||
	    hg_pending_set_part(p, p->seat, part.data ? part.data : "", own) != 0) {
		hg_buf_free(&part);
		rc = -1;
		goto out;
	}
	hg_buf_free(&part);
	/* the attacker's part must be legal on its own (the answers only add) */
	hg_buf whole;
	hg_buf_init(&whole);
	rc = whole_attack(s, p, NULL, NULL, &whole, d) == 0 ? 1 : -1;
	hg_buf_free(&whole);
out:
	if (rc != 1)
		hg_pending_free(p);
	if (a)
		ck_free_action(a);
	free(decided);
	free(castle);
	return rc;
}

int ck_pending_answer(const hg_state *s, hg_pending *p, const char *seat, const char *text,
		      hg_diags *d)
{
	int f = player_faction(s, seat);
	if (f < 0)
		return -1;
	const char *id = s->sc->factions[f].id;
	hg_buf resp, turns, step;
	hg_buf_init(&resp);
	hg_buf_init(&turns);
	hg_buf_init(&step);
	int cards = 0;
	int rc = read_step(id, text, &resp, &turns, &cards, d);
	if (rc == 0) {
		/* the step in its words, single-spaced */
		char *copy = hg_try_strdup(text), *save = NULL;
		for (char *w = copy ? strtok_r(copy, " \t\n", &save) : NULL; w;
		     w = strtok_r(NULL, " \t\n", &save))
			hg_buf_printf(&step, "%s%s", step.len ? " " : "", w);
		free(copy);
		hg_buf whole;
		hg_buf_init(&whole);
		rc = !copy || hg_buf_failed(&step) ? -1 : whole_attack(s, p, id, step.data, &whole, d);
		hg_buf_free(&whole);
	}
	if (rc == 0)
		rc = hg_pending_set_part(p, id, step.data, cards);
	hg_buf_free(&resp);
	hg_buf_free(&turns);
	hg_buf_free(&step);
	return rc;
}

int ck_pending_finish(const hg_state *s, const hg_pending *p, hg_buf *body, hg_diags *d)
{
	return whole_attack(s, p, NULL, NULL, body, d);
}

void ck_pending_steps(const hg_state *view, const hg_pending *p, const char *seat, hg_buf *out)
{
	int f = player_faction(view, seat);
	const char *decl = p->declared ? attack_word(p->declared) : NULL;
	if (f < 0 || !decl)
		return;
	char *area = hg_try_strndup(decl + 7, strcspn(decl + 7, " "));
	int target = area ? hg_names_find(view->map->names, area) : -1;
	free(area);
	if (target < 0)
		return;	/* (or short of memory: the core reports it) */
	/* what the seat holds where the attack begins */
	hg_buf probe;
	hg_buf_init(&probe);
	hg_buf_printf(&probe, "%s / ? vs ? / lost", p->declared);
	hg_diags quiet;
	hg_diags_init(&quiet);
	hg_action *a = p->seat && !hg_buf_failed(&probe) ? parse_body(view, p->seat, probe.data, &quiet)
							   : NULL;
	hg_diags_free(&quiet);
	hg_buf_free(&probe);
	hg_state *base = a && attack_of(a) ? answer_base(view, a) : NULL;
	if (a)
		ck_free_action(a);
	if (hg_alloc_lost()) {
		if (base)
			hg_ck_class.free_state(base);
		return;	/* (the core reports it) */
	}
	const hg_state *s = base ? base : view;
	hg_buf_puts(out, "pass\n");
	int defender = s->owner[target];
	if (!(s->sc->final_pass && ((s->passed >> f) & 1))) {
		const ck_hand *h = &s->p[f].hand;
		for (int r = 0; r < CK_NRELIGIONS; r++)
			for (int c = 0; c < s->data->decks[r].ncards; c++) {
				const ck_card *k = ck_card_at(s, r, c);
				if (k->type != CK_RESPONSE || ck_hand_sure(h, r, c) == 0)
					continue;
				ck_support sup = { 0, 0, 0, 0 };
				ck_response_support(k, &sup);
				if (k->sides & CK_SIDE_ATTACK)
					hg_buf_printf(out, "respond %s attack\n", k->id);
				if ((k->sides & CK_SIDE_DEFENCE) && !(sup.needs_castle && defender < 0))
					hg_buf_printf(out, "respond %s defence\n", k->id);
			}
	}
	if (f == defender) {
		uint64_t m = turnable(s, f, target);
		for (int y = 0; y < s->map->nareas; y++)
			if ((m >> y) & 1)
				hg_buf_printf(out, "turn %s\n", s->map->areas[y].id);
	}
	if (base)
		hg_ck_class.free_state(base);
}
