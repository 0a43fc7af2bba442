#pragma once

#include <string>

namespace seiche::app {

// One field of a CSV row (RFC 4180): quoted when it holds a comma, a quote or a line break.
inline std::string csv_field(const std::string& s) {
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string out = "\"";
    for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

}  // namespace seiche::app
