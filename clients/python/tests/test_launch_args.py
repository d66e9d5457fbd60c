import os
import unittest

from agent_flight_recorder import SILENT_DEBUGGER_SWITCH, recorder_launch_args


class LaunchArgsTest(unittest.TestCase):
    def test_loads_the_extension_only_by_its_absolute_path_and_keeps_the_debugger_infobar_out(self):
        path = os.path.abspath("ext/chrome-mv3")
        self.assertEqual(
            recorder_launch_args("ext/chrome-mv3"),
            [f"--disable-extensions-except={path}", f"--load-extension={path}", "--silent-debugger-extension-api"],
        )
        self.assertEqual(SILENT_DEBUGGER_SWITCH, "--silent-debugger-extension-api")


if __name__ == "__main__":
    unittest.main()
