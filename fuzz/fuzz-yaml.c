/* fuzz-yaml.c - libFuzzer target: the YAML data tree loader and the YAML
 * and JSON record readers on any bytes. */
#include <stdint.h>
#include <stdlib.h>

#include "herald.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	hg_diags d;
	hg_diags_init(&d);
	hg_ydoc *doc = hg_yaml_load_mem("fuzz.yaml", (const char *)data, size, &d);
	hg_ydoc_free(doc);
	hg_game_record **games = NULL;
	size_t n = 0;
	if (hg_read_yaml("fuzz.yaml", (const char *)data, size, &games, &n, &d) == 0) {
		for (size_t i = 0; i < n; i++)
			hg_record_free(games[i]);
		free(games);
	}
	games = NULL;
	n = 0;
	if (hg_read_json("fuzz.json", (const char *)data, size, &games, &n, &d) == 0) {
		for (size_t i = 0; i < n; i++)
			hg_record_free(games[i]);
		free(games);
	}
	hg_diags_free(&d);
	return 0;
}
