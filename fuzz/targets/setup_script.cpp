// A scripted run of the setup screen (`diskref ui --setup DIR --setup-script FILE`, JSON lines).
#include "ui/setup_script.h"
#include "fuzz/fuzz_files.h"
#include "fuzz/fuzz_target.h"

DISKREF_FUZZ_TARGET(setup_script) {
  using namespace diskref;
  (void)ui::load_setup_script(fuzz::place_input("script.jsonl", input));
}
