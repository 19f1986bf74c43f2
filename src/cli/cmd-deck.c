/* cmd-deck.c - `herald deck check`: a deck file against its game's
 * deck-construction rules (hg_game_class.check_deck), each violation a
 * diagnostic at the deck file's line and column. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

enum { FORMAT_TEXT, FORMAT_JSON };
static const char *const formats[] = { "text", "json", NULL };

#define MAX_CARD_FILES 64

typedef struct deck_run {
	cli_common common;
	const char *game;
	const char *cards[MAX_CARD_FILES];
	size_t ncards;
} deck_run;

static cli_spec spec;

static int deck_option(void *ctx, int opt, const char *arg)
{
	deck_run *r = ctx;
	if (opt == 'g') {
		r->game = arg;
		return 0;
	}
	if (opt != 'c')
		return -1;
	if (r->ncards >= MAX_CARD_FILES) {
		cli_usage_error(&spec, "more than %d --cards files", MAX_CARD_FILES);
		return -1;
	}
	r->cards[r->ncards++] = arg;
	return 0;
}

static const struct option longopts[] = {
	{ "cards", required_argument, NULL, 'c' },
	{ "game", required_argument, NULL, 'g' },
	{ NULL, 0, NULL, 0 },
};

static cli_spec spec = {
	.name = "deck check",
	.synopsis = "[OPTION]... DECK...",
	.about =
	N_("Check deck files against their game's deck-construction rules.  Of the\n"
	"games herald referees, Encrucijada has such rules (rule 1 of its text: 40\n"
	"to 60 cards; at most 5 copies of one name in basto, copa and espada; oro\n"
	"cards one copy each and 10 in all; an Atempus tower; three piles); it is\n"
	"the default game.  Each violation is reported at the deck file's line and\n"
	"column; the format is in herald-encrucijada(7), DECK FILES.\n"
	"\n"
	"The cards are those of the bundled card pool, or of the --cards files\n"
	"(read in order, instead of the bundled ones).\n"
	"\n"
	"Diagnostics go to standard output, then a summary line:\n"
	"  N decks, L legal, I illegal\n"
	"\n"
	"Exit status: 0 when every deck is legal, 1 when one is not (or the card\n"
	"pool does not load), 2 on a usage error.\n"),
	.options_help =
	N_("  -c, --cards=FILE       a card file to check against (repeatable)\n"
	"  -g, --game=GAME        the game whose rules apply (when several have decks)\n"),
	.formats = formats,
	.shortopts = "c:g:",
	.longopts = longopts,
	.option = deck_option,
};

int cli_deck_main(int argc, char **argv)
{
	deck_run r;
	memset(&r, 0, sizeof r);
	spec.ctx = &r;
	/* `herald deck check ...`: the action word comes first. */
	if (argc >= 2 && strcmp(argv[1], "check") == 0) {
		argc--;
		argv++;
	} else if (argc >= 2 && argv[1][0] != '-') {
		return cli_usage_error(&spec, "unknown deck command '%s' (the command is 'deck check')",
				       argv[1]);
	}
	int first;
	int status = cli_parse(&spec, argc, argv, &r.common, &first);
	if (status >= 0)
		return status;
	if (first >= argc)
		return cli_usage_error(&spec, "missing DECK operand");
	const hg_game_class *cls = NULL;
	if (r.game) {
		cls = hg_game_find(r.game);
		if (!cls)
			return cli_usage_error(&spec, "unknown game '%s' (see 'herald games')", r.game);
		if (!cls->check_deck)
			return cli_usage_error(&spec, "%s has no deck-construction rules", cls->id);
	} else {
		/* The one game with deck construction, or ask which. */
		const hg_game_class *const *games = hg_games();
		for (size_t i = 0; games[i]; i++) {
			if (!games[i]->check_deck)
				continue;
			if (cls)
				return cli_usage_error(&spec, "several games have decks: name one with --game");
			cls = games[i];
		}
		if (!cls)
			return cli_usage_error(&spec, "no game herald referees has deck-construction rules");
	}
	int colour = cli_use_colour(&r.common, stdout);
	hg_datapath path;
	hg_datapath_init(&path, r.common.data_dir);
	size_t legal = 0, illegal = 0;
	json_t *jdecks = r.common.format == FORMAT_JSON ? json_array() : NULL;
	hg_diags d;
	hg_diags_init(&d);
	for (int i = first; i < argc; i++) {
		int rc = cls->check_deck(&path, r.cards, r.ncards, argv[i], &d);
		if (rc == 0 && d.nerrors == 0)
			legal++;
		else
			illegal++;
		if (jdecks) {
			json_t *o = json_object();
			json_object_set_new(o, "file", cli_json_string(argv[i]));
			json_object_set_new(o, "legal", json_boolean(rc == 0 && d.nerrors == 0));
			json_object_set_new(o, "diagnostics", cli_json_diags(&d, r.common.quiet));
			json_array_append_new(jdecks, o);
		} else {
			cli_print_diags(stdout, &d, colour, r.common.quiet);
		}
		hg_diags_clear(&d);
	}
	if (jdecks) {
		json_t *doc = json_object();
		json_object_set_new(doc, "decks", jdecks);
		json_object_set_new(doc, "legal", json_integer((json_int_t)legal));
		json_object_set_new(doc, "illegal", json_integer((json_int_t)illegal));
		cli_json_print(stdout, doc, 1);
	} else if (!r.common.quiet) {
		printf(hg_ngettext("%zu deck, %zu legal, %zu illegal\n",
				   "%zu decks, %zu legal, %zu illegal\n", legal + illegal),
		       legal + illegal, legal, illegal);
	}
	hg_diags_free(&d);
	hg_datapath_free(&path);
	return illegal ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}
