/* effect.c - the effect language, read from YAML (rule 2, Efectos: "Los
 * efectos son una serie de pasos que hay que seguir al pie de la letra").
 *
 * An effect is an ordered list of steps; each step is one of a few kinds
 * with a handful of parameters.  What the language cannot say is written
 * as an `unexpressed` step holding the card's text: the referee then checks
 * the steps it understands and reports the rest as unverified.  The format
 * is in herald-encrucijada(7), EFFECT LANGUAGE. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "enc.h"

static const char *const step_words[] = {
	"discard", "destroy", "draw", "boost", "wear", "tower", "resource",
	"drain", "forbid", "attack-again", "unexpressed", NULL
};

const char *enc_step_name(enc_step_kind k)
{
	return step_words[k];
}

static const char *const target_words[] = { "none", "opponent", "player", NULL };
static const char *const when_words[] = { "turn", "war", "response", "attacking", NULL };
static const char *const from_words[] = { "table", "town", "hidden", "hand", NULL };
static const char *const scope_words[] = { "all", "town", "attacking", "source", NULL };
static const char *const duration_words[] = { "instant", "turn", "round", "war", NULL };
static const char *const side_words[] = { "self", "target", NULL };
static const char *const wear_side_words[] = { "self", "opponent", NULL };
static const char *const forbid_words[] = { "war", "effects", "put", NULL };

void enc_effect_free(enc_effect *e)
{
	if (!e)
		return;
	for (size_t i = 0; i < e->nsteps; i++)
		free(e->steps[i].text);
	free(e->steps);
	free(e->text);
	free(e);
}

static int opt_int(const hg_ynode *m, const char *key, long min, long max, int *out,
		   hg_diags *d)
{
	const hg_ynode *n = hg_ymap_get(m, key);
	long v;
	if (!n)
		return 0;
	if (hg_yint(n, min, max, &v, d) != 0)
		return -1;
	*out = (int)v;
	return 0;
}

static int opt_word(const hg_ynode *m, const char *key, const char *const *words,
		    int *out, hg_diags *d)
{
	const hg_ynode *n = hg_ymap_get(m, key);
	if (!n)
		return 0;
	return hg_yword(n, words, out, d);
}

/* The parameters of one step; `args` is its mapping (NULL when the step was
 * written as a bare word). */
static int parse_step(const enc_pool *pool, enc_step *st, const hg_ynode *args,
		      hg_diags *d)
{
	static const char *const discard_keys[] = { "count", "from", NULL };
	static const char *const destroy_keys[] = { "count", "max-value", "suit", "marks", NULL };
	static const char *const draw_keys[] = { "count", NULL };
	static const char *const boost_keys[] = { "value", "grant", "scope", "duration", "of", NULL };
	static const char *const wear_keys[] = { "!amount", "side", NULL };
	static const char *const tower_keys[] = { "!amount", "of", NULL };
	static const char *const resource_keys[] = { "!type", "!amount", "duration", NULL };
	static const char *const drain_keys[] = { "!type", "!amount", "duration", NULL };
	static const char *const forbid_keys[] = { "!action", "of", NULL };
	static const char *const no_keys[] = { NULL };
	static const char *const *const keys[] = {
		discard_keys, destroy_keys, draw_keys, boost_keys, wear_keys,
		tower_keys, resource_keys, drain_keys, forbid_keys, no_keys, no_keys
	};
	st->count = 1;
	st->max_value = -1;
	st->suit = -1;
	st->res = -1;
	st->duration = ENC_DUR_TURN;
	const char *what = step_words[st->kind];
	if (!args) {
		const char *const *k = keys[st->kind];
		for (; *k; k++)
			if ((*k)[0] == '!') {
				hg_diag_add(d, HG_ERROR, st->pos, "data.missing-key",
					    "the step '%s' needs '%s'", what, *k + 1);
				return -1;
			}
		return 0;
	}
	if (hg_ycheck_kind(args, HG_Y_MAP, "the parameters of a step", d) != 0 ||
	    hg_ycheck_keys(args, keys[st->kind], "the step", d) != 0)
		return -1;
	int rc = 0, w;
	const hg_ynode *n;
	switch (st->kind) {
	case ENC_STEP_DISCARD:
		rc |= opt_int(args, "count", 1, ENC_MAX_COUNT, &st->count, d);
		w = ENC_FROM_TABLE;
		rc |= opt_word(args, "from", from_words, &w, d);
		st->from = (enc_zone_pick)w;
		break;
	case ENC_STEP_DESTROY:
		rc |= opt_int(args, "count", 1, ENC_MAX_COUNT, &st->count, d);
		rc |= opt_int(args, "max-value", 0, 99, &st->max_value, d);
		rc |= opt_word(args, "suit", enc_suit_names, &st->suit, d);
		if ((n = hg_ymap_get(args, "marks")) != NULL)
			rc |= enc_load_marks(n, &st->need_marks, d);
		break;
	case ENC_STEP_DRAW:
		rc |= opt_int(args, "count", 1, ENC_MAX_COUNT, &st->count, d);
		break;
	case ENC_STEP_BOOST:
		rc |= opt_int(args, "value", -20, 20, &st->amount, d);
		if ((n = hg_ymap_get(args, "grant")) != NULL)
			rc |= enc_load_marks(n, &st->grant, d);
		w = ENC_SCOPE_ALL;
		rc |= opt_word(args, "scope", scope_words, &w, d);
		st->scope = (enc_scope)w;
		w = ENC_DUR_TURN;
		rc |= opt_word(args, "duration", duration_words, &w, d);
		st->duration = (enc_duration)w;
		w = ENC_WHO_SELF;
		rc |= opt_word(args, "of", side_words, &w, d);
		st->who = (enc_whom)w;
		if (rc == 0 && st->who == ENC_WHO_TARGET && st->scope != ENC_SCOPE_ALL &&
		    st->scope != ENC_SCOPE_TOWN) {
			hg_diag_add(d, HG_ERROR, args->pos, "data.range",
				    "a boost of the target's cards reaches 'all' or 'town'");
			rc = -1;
		}
		if (rc == 0 && st->amount == 0 && st->grant == 0) {
			hg_diag_add(d, HG_ERROR, args->pos, "data.missing-key",
				    "a boost needs a 'value' or a 'grant'");
			rc = -1;
		}
		if (rc == 0 && st->duration == ENC_DUR_INSTANT) {
			hg_diag_add(d, HG_ERROR, hg_ymap_get(args, "duration")->pos, "data.range",
				    "a boost lasts a turn, a round or a war, not an instant");
			rc = -1;
		}
		break;
	case ENC_STEP_WEAR:
		rc |= opt_int(args, "amount", 1, 10, &st->amount, d);
		w = 1;
		rc |= opt_word(args, "side", wear_side_words, &w, d);
		st->who = w == 0 ? ENC_WHO_SELF : ENC_WHO_TARGET;
		break;
	case ENC_STEP_TOWER:
		rc |= opt_int(args, "amount", -999, 999, &st->amount, d);
		w = ENC_WHO_SELF;
		rc |= opt_word(args, "of", side_words, &w, d);
		st->who = (enc_whom)w;
		if (rc == 0 && st->amount == 0) {
			hg_diag_add(d, HG_ERROR, hg_ymap_get(args, "amount")->pos, "data.range",
				    "a tower step changes the resistance: the amount is not 0");
			rc = -1;
		}
		break;
	case ENC_STEP_RESOURCE:
	case ENC_STEP_DRAIN: {
		rc |= opt_int(args, "amount", 1, 999, &st->amount, d);
		const char *s;
		n = hg_ymap_get(args, "type");
		if (hg_ystr(n, &s, d) != 0) {
			rc = -1;
		} else if (hg_name_eq(s, "choice")) {
			st->res = -1;
		} else if ((st->res = enc_find_res(pool, s)) < 0) {
			hg_diag_add(d, HG_ERROR, n->pos, "data.reference",
				    "unknown resource '%s' (or 'choice')", s);
			rc = -1;
		}
		w = ENC_DUR_ROUND;
		rc |= opt_word(args, "duration", duration_words, &w, d);
		st->duration = (enc_duration)w;
		if (rc == 0 && st->duration == ENC_DUR_INSTANT) {
			hg_diag_add(d, HG_ERROR, hg_ymap_get(args, "duration")->pos, "data.range",
				    "a resource lasts a turn, a round or a war, not an instant");
			rc = -1;
		}
		break;
	}
	case ENC_STEP_FORBID:
		w = 0;
		rc |= opt_word(args, "action", forbid_words, &w, d);
		st->forbid = (enc_forbid)w;
		w = ENC_WHO_SELF;
		rc |= opt_word(args, "of", side_words, &w, d);
		st->who = (enc_whom)w;
		break;
	case ENC_STEP_ATTACK_AGAIN:
	case ENC_STEP_UNEXPRESSED:
		break;
	}
	return rc ? -1 : 0;
}

/* A step is `- kind: {params}`, `- kind` (no parameters) or
 * `- unexpressed: "text"`. */
static int parse_step_node(const enc_pool *pool, enc_step *st, const hg_ynode *n,
			   hg_diags *d)
{
	memset(st, 0, sizeof *st);
	st->pos = n->pos;
	int w;
	if (n->kind == HG_Y_SCALAR) {
		if (hg_yword(n, step_words, &w, d) != 0)
			return -1;
		st->kind = (enc_step_kind)w;
		if (st->kind == ENC_STEP_UNEXPRESSED) {
			hg_diag_add(d, HG_ERROR, n->pos, "data.missing-key",
				    "an unexpressed step holds the text it stands for");
			return -1;
		}
		return parse_step(pool, st, NULL, d);
	}
	if (hg_ycheck_kind(n, HG_Y_MAP, "a step", d) != 0)
		return -1;
	if (hg_ymap_len(n) != 1) {
		hg_diag_add(d, HG_ERROR, n->pos, "data.type",
			    "a step is a mapping with one key, the kind of step");
		return -1;
	}
	const hg_ynode *k = hg_ymap_key(n, 0), *v = hg_ymap_value(n, 0);
	if (hg_yword(k, step_words, &w, d) != 0)
		return -1;
	st->kind = (enc_step_kind)w;
	if (st->kind == ENC_STEP_UNEXPRESSED) {
		const char *s;
		if (hg_ystr(v, &s, d) != 0)
			return -1;
		st->text = hg_try_strdup(s);
		return st->text ? 0 : -1;	/* (the unit of work reports it) */
	}
	if (v->kind == HG_Y_SCALAR && v->scalar[0] == '\0')
		v = NULL;	/* `- attack-again:` */
	return parse_step(pool, st, v, d);
}

/* Steps that need the player the effect names. */
static int step_needs_target(const enc_step *st)
{
	switch (st->kind) {
	case ENC_STEP_DESTROY:
	case ENC_STEP_DRAIN:
		return 1;
	case ENC_STEP_BOOST:
	case ENC_STEP_TOWER:
	case ENC_STEP_FORBID:
		return st->who == ENC_WHO_TARGET;
	default:
		return 0;
	}
}

enc_effect *enc_effect_parse(const enc_pool *pool, const hg_ynode *n, hg_diags *d)
{
	static const char *const keys[] = {
		"text", "target", "when", "battle", "steps", "unexpressed", NULL
	};
	if (hg_ycheck_kind(n, HG_Y_MAP, "an effect", d) != 0 ||
	    hg_ycheck_keys(n, keys, "an effect", d) != 0)
		return NULL;
	enc_effect *e = hg_try_calloc(1, sizeof *e);
	if (!e)
		return NULL;	/* (the unit of work reports it) */
	e->pos = n->pos;
	e->when = ENC_WHEN_ALL;
	int rc = 0, w;
	const hg_ynode *m;
	const char *s;
	if ((m = hg_ymap_get(n, "text")) != NULL) {
		if (hg_ystr(m, &s, d) != 0)
			rc = -1;
		else if (!(e->text = hg_try_strdup(s)))
			rc = -1;
	}
	w = ENC_TARGET_NONE;
	if (opt_word(n, "target", target_words, &w, d) != 0)
		rc = -1;
	e->target = (enc_target_kind)w;
	if ((m = hg_ymap_get(n, "when")) != NULL) {
		if (hg_ycheck_kind(m, HG_Y_SEQ, "a list of moments", d) != 0) {
			rc = -1;
		} else {
			e->when = 0;
			for (size_t i = 0; i < m->n; i++) {
				if (hg_yword(m->items[i], when_words, &w, d) != 0)
					rc = -1;
				else
					e->when |= 1u << w;
			}
			if ((e->when & ENC_WHEN_ALL) == 0)
				e->when |= ENC_WHEN_ALL;	/* only `attacking` given */
		}
	}
	if ((m = hg_ymap_get(n, "battle")) != NULL && hg_ybool(m, &e->battle, d) != 0)
		rc = -1;
	const hg_ynode *steps = hg_ymap_get(n, "steps");
	const hg_ynode *unexp = hg_ymap_get(n, "unexpressed");
	if (!steps && !unexp) {
		hg_diag_add(d, HG_ERROR, n->pos, "data.missing-key",
			    "an effect needs 'steps' (or 'unexpressed' for text the language cannot say)");
		enc_effect_free(e);
		return NULL;
	}
	size_t nsteps = (steps && steps->kind == HG_Y_SEQ ? steps->n : 0) + (unexp ? 1 : 0);
	if (steps && hg_ycheck_kind(steps, HG_Y_SEQ, "the list of steps", d) != 0)
		rc = -1;
	if (nsteps > ENC_MAX_STEPS) {
		hg_diag_add(d, HG_ERROR, steps ? steps->pos : n->pos, "data.range",
			    "an effect of %zu steps; at most %d", nsteps, ENC_MAX_STEPS);
		enc_effect_free(e);
		return NULL;
	}
	e->steps = hg_try_calloc(nsteps ? nsteps : 1, sizeof *e->steps);
	if (!e->steps) {
		enc_effect_free(e);
		return NULL;
	}
	if (steps && steps->kind == HG_Y_SEQ) {
		if (steps->n == 0) {
			hg_diag_add(d, HG_ERROR, steps->pos, "data.range",
				    "an effect has at least one step");
			rc = -1;
		}
		for (size_t i = 0; i < steps->n; i++) {
			if (parse_step_node(pool, &e->steps[e->nsteps], steps->items[i], d) != 0) {
				free(e->steps[e->nsteps].text);
				rc = -1;
				continue;
			}
			e->nsteps++;
		}
	}
	if (unexp) {
		enc_step *st = &e->steps[e->nsteps];
		memset(st, 0, sizeof *st);
		st->kind = ENC_STEP_UNEXPRESSED;
		st->pos = unexp->pos;
		if (hg_ystr(unexp, &s, d) != 0)
			rc = -1;
		else if (!(st->text = hg_try_strdup(s)))
			rc = -1;
		else
			e->nsteps++;
	}
	for (size_t i = 0; i < e->nsteps; i++) {
		const enc_step *st = &e->steps[i];
		if (st->kind == ENC_STEP_UNEXPRESSED)
			e->unexpressed = 1;
		if (step_needs_target(st) && e->target == ENC_TARGET_NONE) {
			hg_diag_add(d, HG_ERROR, st->pos, "data.missing-key",
				    "the step '%s' acts on another player: the effect needs 'target: opponent' or 'target: player'",
				    step_words[st->kind]);
			rc = -1;
		}
	}
	if (rc != 0) {
		enc_effect_free(e);
		return NULL;
	}
	return e;
}
