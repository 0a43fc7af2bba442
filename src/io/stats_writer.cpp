// stats.csv: one row per step, the same columns for every solver.
#include <stdexcept>

#include "seiche/io/writers.hpp"

namespace seiche::io {

const char* StatsWriter::header() {
    return "step,time,dt,iterations,density_error_mean,density_error_max,kinetic_energy,"
           "potential_energy,contained";
}

void StatsWriter::open(const std::filesystem::path& path) {
    path_ = path;
    std::filesystem::path part = path;
    part += ".part";
    file_ = std::fopen(part.c_str(), "w");
    if (!file_) throw std::runtime_error("cannot write " + part.string());
    std::fprintf(file_, "%s\n", header());
}

void StatsWriter::append(const StepStats& s) {
    if (!file_) return;
    std::fprintf(file_, "%lld,%.9g,%.9g,%d,%.6g,%.6g,%.9g,%.9g,%zu\n",
                 static_cast<long long>(s.step), s.time, s.dt, s.iterations, s.density_error_mean,
                 s.density_error_max, s.kinetic_energy, s.potential_energy, s.contained);
}

void StatsWriter::close() {
    if (!file_) return;
    const bool ok = std::fflush(file_) == 0;
    std::fclose(file_);
    file_ = nullptr;
    std::filesystem::path part = path_;
    part += ".part";
    if (!ok) throw std::runtime_error("write failed (disk full?): " + part.string());
    std::filesystem::rename(part, path_);
}

StatsWriter::~StatsWriter() {
    try {
        close();
    } catch (...) {
    }
}

}  // namespace seiche::io
