# -*- Python -*-
# Runs every gtest of the hk unit-test binaries as a lit test.

import lit.formats

config.name = "hk-unit"
config.suffixes = []
config.test_source_root = config.hk_unittests_dir
config.test_exec_root = config.hk_unittests_dir
config.test_format = lit.formats.GoogleTest(".", "Tests")
