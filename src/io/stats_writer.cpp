// stats.csv: one row per step, the same columns for every solver.
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <stdexcept>

#include "atomic_file.hpp"

#include "seiche/io/writers.hpp"

namespace seiche::io {

const char* StatsWriter::header() {
    return "step,time,dt,iterations,density_error_mean,density_error_max,kinetic_energy,"
           "potential_energy,contained,particles";
}

void StatsWriter::open(const std::filesystem::path& path, std::string_view rows) {
    path_ = path;
    fd_ = create_temp_beside(path, temp_);
    const int dup = ::dup(fd_);
    file_ = dup >= 0 ? ::fdopen(dup, "w") : nullptr;
    if (!file_) {
        ::close(fd_);
        ::unlink(temp_.c_str());
        fd_ = -1;
        throw std::runtime_error("cannot write " + temp_.string());
    }
    std::fprintf(file_, "%s\n", header());
    std::fwrite(rows.data(), 1, rows.size(), file_);
}

void StatsWriter::snapshot() {
    if (!file_) return;
    if (std::fflush(file_) != 0) throw std::runtime_error("write failed (disk full?): " + temp_.string());
    std::ifstream in(temp_, std::ios::binary);
    write_file_atomic(path_, [&](std::ostream& out) { out << in.rdbuf(); });
}

void StatsWriter::append(const StepStats& s) {
    if (!file_) return;
    std::fprintf(file_, "%lld,%.9g,%.9g,%d,%.6g,%.6g,%.9g,%.9g,%zu,%zu\n",
                 static_cast<long long>(s.step), s.time, s.dt, s.iterations, s.density_error_mean,
                 s.density_error_max, s.kinetic_energy, s.potential_energy, s.contained,
                 s.particles);
}

void StatsWriter::close() {
    if (!file_) return;
    const bool ok = std::fflush(file_) == 0;
    std::fclose(file_);
    file_ = nullptr;
    const int fd = fd_;
    fd_ = -1;
    if (!ok) {
        ::close(fd);
        ::unlink(temp_.c_str());
        throw std::runtime_error("write failed (disk full?): " + temp_.string());
    }
    commit_temp(fd, temp_, path_);
}

StatsWriter::~StatsWriter() {
    try {
        close();
    } catch (...) {
    }
}

}  // namespace seiche::io
