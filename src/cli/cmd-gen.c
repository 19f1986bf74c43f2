/* cmd-gen.c - `herald gen`: random legal games in canonical HGN, for
 * tests, fuzzing corpora and benchmarks.  The same options give the same
 * games on every machine. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

typedef struct gen_run {
	cli_common common;
	const char *game;
	const char *seed;
	unsigned long count;
	unsigned long players;	/* 0: the game's default */
	const char *variant;
	const char *output;
} gen_run;

static cli_spec spec;	/* defined below; the option handler reports through it */

static int gen_option(void *ctx, int opt, const char *arg)
{
	gen_run *r = ctx;
	switch (opt) {
	case 'g':
		r->game = arg;
		return 0;
	case 's':
		r->seed = arg;
		return 0;
	case 'n':
		return cli_parse_number(&spec, "--count", arg, 0, 1000000000, &r->count);
	case 'p':
		return cli_parse_number(&spec, "--players", arg, 1, 64, &r->players);
	case 'v':
		r->variant = arg;
		return 0;
	case 'o':
		r->output = arg;
		return 0;
	}
	return -1;
}

static const struct option longopts[] = {
	{ "game", required_argument, NULL, 'g' },
	{ "seed", required_argument, NULL, 's' },
	{ "count", required_argument, NULL, 'n' },
	{ "players", required_argument, NULL, 'p' },
	{ "variant", required_argument, NULL, 'v' },
	{ "output", required_argument, NULL, 'o' },
	{ NULL, 0, NULL, 0 },
};

static cli_spec spec = {
	.name = "gen",
	.synopsis = "--game=GAME [OPTION]...",
	.about =
	N_("Generate random legal games of GAME and print them in canonical HGN,\n"
	"separated by a blank line.  Each game is played out by choosing uniformly\n"
	"among the legal actions until the game is over.  Game 1 uses the seed S\n"
	"itself, game 2 the seed 'S/1', game 3 'S/2', and so on: the same seed and\n"
	"options give the same games everywhere, and any one game can be made again\n"
	"alone from its seed.\n"
	"\n"
	"Exit status: 0 when all went well, 1 when a game could not be generated,\n"
	"2 on a usage or input/output error.\n"),
	.options_help =
	N_("  -g, --game=GAME        the game, by id or alias (see 'herald games')\n"
	"  -s, --seed=S           seed of the first game (default 'herald')\n"
	"  -n, --count=K          generate K games (default 1)\n"
	"  -p, --players=N        N players (default: the game's default)\n"
	"  -v, --variant=V        play variant V (see 'herald games')\n"
	"  -o, --output=FILE      write to FILE (atomically) instead of standard output\n"),
	.shortopts = "g:s:n:p:v:o:",
	.longopts = longopts,
	.option = gen_option,
};

static int unknown_game(const char *name)
{
	const hg_game_class *const *games = hg_games();
	hg_names *names = hg_names_new();
	hg_buf list;
	hg_buf_init(&list);
	for (int i = 0; games[i]; i++) {
		hg_names_add(names, games[i]->id, i, NULL);
		for (size_t k = 0; games[i]->aliases && games[i]->aliases[k]; k++)
			hg_names_add(names, games[i]->aliases[k], i, NULL);
		hg_buf_printf(&list, "%s%s", i ? ", " : "", games[i]->id);
	}
	int near[3];
	size_t n = hg_names_suggest(names, name, near, 3);
	hg_names_free(names);
	fprintf(stderr, "herald gen: unknown game '%s'\n", name);
	const char *words[3];
	for (size_t i = 0; i < n; i++)
		words[i] = games[near[i]]->id;
	cli_print_suggestions(stderr, words, n);
	fprintf(stderr, "herald referees: %s\n", list.data ? list.data : "(no game)");
	hg_buf_free(&list);
	return CLI_EXIT_USAGE;
}

/* The seed of game i (from 0): S, then S/1, S/2, ... */
static void game_seed(hg_buf *b, const char *seed, unsigned long i)
{
	hg_buf_clear(b);
	if (i == 0)
		hg_buf_puts(b, seed);
	else
		hg_buf_printf(b, "%s/%lu", seed, i);
}

int cli_gen_main(int argc, char **argv)
{
	gen_run r;
	memset(&r, 0, sizeof r);
	r.seed = "herald";
	r.count = 1;
	spec.ctx = &r;
	int first;
	int status = cli_parse(&spec, argc, argv, &r.common, &first);
	if (status >= 0)
		return status;
	if (first < argc)
		return cli_usage_error(&spec, "extra operand '%s' (gen reads no file)", argv[first]);
	if (!r.game)
		return cli_usage_error(&spec, "missing --game=GAME (see 'herald games')");
	const hg_game_class *cls = hg_game_find(r.game);
	if (!cls)
		return unknown_game(r.game);
	if (r.output && strcmp(r.output, "-") == 0)
		r.output = NULL;
	int colour_err = cli_use_colour(&r.common, stderr);

	hg_session *session = cli_session_new(&r.common);
	/* -o FILE is written as the games are made, through a temporary file
	 * renamed over FILE at the end: memory holds one game, and FILE is
	 * left as it was when anything fails. */
	FILE *sink = stdout;
	cli_atomic tmp;
	if (r.output) {
		if (cli_atomic_open(&tmp, r.output) != 0) {
			cli_error("gen", "cannot write '%s': %s", r.output, strerror(errno));
			hg_session_free(session);
			return CLI_EXIT_USAGE;
		}
		sink = tmp.fp;
	}
	hg_diags d;
	hg_diags_init(&d);
	hg_buf out, seed;
	hg_buf_init(&out);
	hg_buf_init(&seed);
	size_t written = 0;
	int failed = 0, io_error = 0;
	for (unsigned long i = 0; i < r.count; i++) {
		game_seed(&seed, r.seed, i);
		cli_buf_check(&seed);
		hg_game_record *g = hg_generate(session, cls, seed.data, (unsigned)r.players,
						r.variant, &d);
		cli_print_diags(stderr, &d, colour_err, r.common.quiet);
		if (!g || d.nerrors) {
			if (!g && cli_ran_out_of_memory(&d))
				cli_note_out_of_memory();
			failed = 1;
			hg_record_free(g);
			break;	/* the same failure would repeat for every game */
		}
		hg_diags_clear(&d);
		cli_hgn_append(&out, g, &written);
		hg_record_free(g);
		if (cli_flush_buf("gen", sink, &out) != 0) {
			io_error = 1;
			break;
		}
	}
	/* The output ends with a blank line, so that files of games made
	 * apart and joined with cat still have one between every two games. */
	if (written > 0 && !io_error) {
		hg_buf_putc(&out, '\n');
		if (cli_flush_buf("gen", sink, &out) != 0)
			io_error = 1;
	}
	if (r.output) {
		if (failed || io_error) {
			cli_atomic_abort(&tmp);
		} else if (cli_atomic_commit(&tmp) != 0) {
			cli_error("gen", "cannot write '%s': %s", r.output, strerror(errno));
			io_error = 1;
		}
	}
	hg_buf_free(&out);
	hg_buf_free(&seed);
	hg_diags_free(&d);
	hg_session_free(session);
	if (io_error)
		return CLI_EXIT_USAGE;
	return failed ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}
