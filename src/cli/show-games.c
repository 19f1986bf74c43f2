/* show-games.c - the reading loop of the commands that show one file's
 * games, game by game, with each game's diagnostics after it (next,
 * replay). */
#include "config.h"

#include <stdio.h>

#include "cli.h"

int cli_show_games(const cli_spec *spec, const cli_common *common, int argc, char **argv,
		   int first, int from, cli_show_game show, void *ctx, hg_buf *out)
{
	if (first >= argc)
		return cli_usage_error(spec, "missing FILE operand ('-' reads standard input)");
	if (argc - first > 1)
		return cli_usage_error(spec, "extra operand '%s' (%s takes one FILE)",
				       argv[first + 1], spec->name);
	int colour = cli_use_colour(common, stderr);
	hg_diags d;
	hg_diags_init(&d);
	cli_inputs in = { 0 };
	if (cli_inputs_expand(&in, argv + first, 1, &d) > 0) {
		cli_print_diags(stderr, &d, colour, 0);
		cli_inputs_free(&in);
		hg_diags_free(&d);
		return CLI_EXIT_USAGE;
	}
	if (in.n != 1) {
		cli_inputs_free(&in);
		hg_diags_free(&d);
		return cli_usage_error(spec, "'%s' is a directory (%s takes one FILE)",
				       argv[first], spec->name);
	}
	const char *path = in.paths[0];
	int io_error = 0, bad = 0;
	cli_source src;
	if (cli_source_open(&src, &in, 0, cli_informat_pick(from, path), 0, &d) != 0) {
		io_error = 1;
	} else {
		for (size_t index = 1;; index++) {
			hg_game_record *g;
			int rc = cli_source_next(&src, &g, &d);
			if (rc <= 0) {
				io_error |= rc < 0;
				bad |= d.nerrors > 0;
				break;
			}
			int shown = show(ctx, path, index, g, &d);
			bad |= (shown & CLI_SHOW_BAD) != 0;
			io_error |= (shown & CLI_SHOW_IO) != 0;
			if (!io_error && cli_flush_buf(spec->name, stdout, out) != 0)
				io_error = 1;
			cli_print_diags(stderr, &d, colour, common->quiet);
			hg_diags_clear(&d);
			hg_record_free(g);
			if (io_error)
				break;	/* the output is lost: stop, and say so once */
		}
	}
	cli_print_diags(stderr, &d, colour, common->quiet);
	cli_source_close(&src);
	hg_diags_free(&d);
	cli_inputs_free(&in);
	if (io_error)
		return CLI_EXIT_USAGE;
	return bad ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}
