#pragma once
// A plain-text table for terminal summaries: columns sized to their widest cell, numbers right-aligned.
#include <cstddef>
#include <string>
#include <vector>

#include "io/number_format.hpp"

namespace rackscale::io {

class TextTable {
 public:
  enum class Align { left, right };

  // One entry per column: its heading and alignment.
  TextTable(std::vector<std::string> headings, std::vector<Align> align);
  void add_row(std::vector<std::string> cells);  // must have one cell per column
  [[nodiscard]] std::string render() const;      // ends with a newline

 private:
  std::vector<std::string> headings_;
  std::vector<Align> align_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace rackscale::io
