// Progress display: one live line on a terminal, plain lines otherwise: one per frame, and for a
// run without frame lines (bench, compare, validate) one at each tenth of its simulated time, so
// that a long run written to a log shows how far it is.
#pragma once

#include <chrono>
#include <deque>
#include <string>
#include <utility>

#include "seiche/solver_traits.hpp"
#include "seiche/step_stats.hpp"

namespace seiche::app {

struct ProgressState {
    int frame = 0;
    int frames_total = 0;
    double time = 0;      //!< simulated, s
    double end_time = 0;  //!< s
    long long steps = 0;
    double wall = 0;  //!< s since the start
};

// The simulated seconds a wall second of the recent past brought: over the run's last tenth of
// wall time (at least 5 s, at most 5 min). A dam break's steps shorten by half or more after its
// impact, so the average over the whole run promised an end far too early (a 2D Lobovsky run
// showed 52 minutes left at a tenth of its time and took 86 more).
class RecentRate {
  public:
    // The run at wall seconds since its start and simulated time s; a sample kept every 0.5 s.
    // A wall or time below the last starts again (the next run of compare or validate).
    void add(double wall, double time);
    // Simulated s per wall s at the last sample; the whole run's average until 2 s of samples.
    double sim_per_wall() const;

  private:
    std::deque<std::pair<double, double>> samples_;  //!< (wall, time)
    std::pair<double, double> latest_{0.0, 0.0};
};

class Progress {
  public:
    explicit Progress(bool quiet);
    // Called every step; draws at most a few times per second on a terminal; elsewhere prints a
    // line when the run passes another tenth of its end time and no frame line was printed since
    // the last tenth.
    void step(const ProgressState& s);
    // Called when a frame is written; prints a line when not on a terminal.
    void frame(const ProgressState& s);
    void finish();  // ends a run: clears the live line; the next run counts its own tenths

  private:
    std::string line(const ProgressState& s) const;
    bool quiet_, tty_;
    RecentRate rate_;
    double last_draw_ = -1.0;
    bool drawn_ = false;
    int tenth_ = 0;               //!< the last tenth of the end time reached (not on a terminal)
    bool frame_printed_ = false;  //!< a frame line since that tenth
};

std::string format_duration(double seconds);

// The two density-error lines of `seiche run`'s and `seiche bench`'s summaries: over the run, and
// the last step; the label padded to `label_width` characters after the indent.
void print_density_error(const RunTotals& totals, int label_width);

// When some steps' solve stopped at its iteration cap above its tolerance (StepStats::capped):
// "stopped at solver.dfsph.max_iterations above solver.dfsph.density_tolerance on 448 of 448
// steps (100%)"; "" when none did. The steps capped above the peak tolerance (capped_peak, of
// capped) name that key: "stopped at solver.pbf.max_iterations on 12 of 300 steps (4%): above
// solver.pbf.density_tolerance on 2, above solver.pbf.peak_tolerance on 10".
std::string capped_note(long long capped, long long capped_peak, long long steps,
                        SolverType solver);

// The value of the scene's solver's tolerance_key (0 for a solver without one).
double solve_tolerance(const WorldDef& def);

// The same as a line of the summaries (label padded as print_density_error's), with the remedy
// when a tenth of the steps or more were capped; nothing when none was. Also when the solve
// drove its error up (RunTotals::diverged), and when the steps' measured mean error averaged
// over ten times the `tolerance` that their solves met.
void print_capped(const RunTotals& totals, SolverType solver, double tolerance, int label_width);

// "render frame 12/61  4.2 frames/s  elapsed 0:03  ETA 0:12" while pictures are drawn: one live
// line on a terminal, a line per picture otherwise, nothing when quiet.
class PictureProgressLine {
  public:
    explicit PictureProgressLine(bool quiet);
    void operator()(std::size_t done, std::size_t total);
    void finish();

  private:
    bool quiet_, tty_;
    std::chrono::steady_clock::time_point t0_;
};

// Wall seconds since t0.
inline double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace seiche::app
