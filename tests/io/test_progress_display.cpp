// The progress displays (src/io/progress): the text of a report from hand-worked figures, when a
// report is due, what the terminal and log-line displays write, and the choice of display by name.
#include <memory>
#include <sstream>
#include <stdexcept>

#include <gtest/gtest.h>

#include "io/progress/line_progress.hpp"
#include "io/progress/make_progress.hpp"
#include "io/progress/progress_line.hpp"
#include "io/progress/terminal_progress.hpp"

namespace rackscale::io {
namespace {

pdes::ProgressFigures halfway() {
  pdes::ProgressFigures f;
  f.simulated = 1 * pdes::kMillisecond;
  f.end = 2 * pdes::kMillisecond;
  f.events = 3'000'000;
  f.wall_seconds = 4;
  return f;
}

TEST(ProgressLine, SimulatedTimeAgainstAFiniteEnd) {
  // Half the simulated time in 4 s of wall time: 4 s to go.
  EXPECT_EQ(progress_line(halfway(), 1.5e6), "simulated 1 ms of 2 ms (50.0 %), wall 4.0 s, 1.5 M events/s, ETA 4.0 s");
}

TEST(ProgressLine, TheModelsGaugeComesBeforeSimulatedTime) {
  pdes::ProgressFigures f = halfway();
  f.end = pdes::kNever;
  f.work = {1, 4};  // a quarter done in 4 s: 12 s to go
  EXPECT_EQ(progress_line(f, 2e3), "simulated 1 ms, 25.0 % of the work, wall 4.0 s, 2 K events/s, ETA 12 s");
}

TEST(ProgressLine, NoEtaWithoutAnEndOrAGauge) {
  pdes::ProgressFigures f = halfway();
  f.end = pdes::kNever;
  EXPECT_EQ(progress_line(f, 0), "simulated 1 ms, wall 4.0 s, 0 events/s, ETA unknown");
}

TEST(ProgressLine, DurationsReadAsPeopleSayThem) {
  EXPECT_EQ(format_duration(0.44), "0.4 s");
  EXPECT_EQ(format_duration(12.4), "12 s");
  EXPECT_EQ(format_duration(200), "3 min 20 s");
  EXPECT_EQ(format_duration(2 * 3600 + 5 * 60 + 10), "2 h 05 min");
  EXPECT_EQ(format_duration(-1), "unknown");
}

TEST(LineProgress, DueEveryIntervalWithTheRateSinceTheLastReport) {
  std::ostringstream out;
  LineProgress display(out, 2.0);
  EXPECT_FALSE(display.due(1.9));
  EXPECT_TRUE(display.due(2.0));
  pdes::ProgressFigures f = halfway();
  f.wall_seconds = 2;
  f.events = 1'000;
  display.report(f);  // 1,000 events in 2 s
  EXPECT_FALSE(display.due(3.9));
  EXPECT_TRUE(display.due(4.0));
  f.wall_seconds = 4;
  f.events = 9'000;
  display.report(f);  // 8,000 more in 2 s
  display.finish();
  EXPECT_EQ(out.str(),
            "progress: simulated 1 ms of 2 ms (50.0 %), wall 2.0 s, 500 events/s, ETA 2.0 s\n"
            "progress: simulated 1 ms of 2 ms (50.0 %), wall 4.0 s, 4 K events/s, ETA 4.0 s\n");
}

TEST(TerminalProgress, RewritesOneLineAndErasesItAtTheEnd) {
  std::ostringstream out;
  TerminalProgress display(out, 0.5);
  display.report(halfway());
  EXPECT_EQ(out.str(), "\rprogress: simulated 1 ms of 2 ms (50.0 %), wall 4.0 s, 750 K events/s, ETA 4.0 s\x1b[K");
  out.str("");
  display.finish();
  EXPECT_EQ(out.str(), "\r\x1b[K");
  out.str("");
  display.finish();  // nothing shown any more: nothing to erase
  EXPECT_EQ(out.str(), "");
}

TEST(MakeProgress, ChoosesByNameAndTerminal) {
  std::ostringstream out;
  EXPECT_NE(dynamic_cast<TerminalProgress*>(make_progress("auto", 0, true, out).get()), nullptr);
  EXPECT_NE(dynamic_cast<LineProgress*>(make_progress("auto", 0, false, out).get()), nullptr);
  EXPECT_NE(dynamic_cast<TerminalProgress*>(make_progress("tty", 0, false, out).get()), nullptr);
  EXPECT_NE(dynamic_cast<pdes::NoProgress*>(make_progress("off", 0, true, out).get()), nullptr);
  // Default intervals, and a chosen one.
  EXPECT_FALSE(make_progress("lines", 0, false, out)->due(kLineProgressInterval - 0.01));
  EXPECT_TRUE(make_progress("lines", 0, false, out)->due(kLineProgressInterval));
  EXPECT_TRUE(make_progress("tty", 0, true, out)->due(kTerminalProgressInterval));
  EXPECT_TRUE(make_progress("lines", 0.01, false, out)->due(0.01));
  EXPECT_THROW((void)make_progress("loud", 0, false, out), std::invalid_argument);
}

}  // namespace
}  // namespace rackscale::io
