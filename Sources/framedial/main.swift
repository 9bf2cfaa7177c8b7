import FrameDialCLI

#if canImport(Glibc)
  import Glibc
#endif

// First of all: a signal sent as the process starts waits for the command's trap (in this process, or
// in framedial-full when the run is handed over to it: held signals stay held across the hand-over).
CLI.holdSignals()
exit(CLI.runOrHandOver(CommandLine.arguments))
