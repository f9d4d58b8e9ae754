#pragma once
// A search's output file (`rackscale search --output FILE`, docs/search.md): every candidate estimated
// and every finalist simulated so far, with what identifies the search, so that an interrupted search
// resumes from it (`--resume`) and ends with the same ranked table. JSON:
//   {"format": "rackscale-search-journal", "version": 1,
//    "search": {"model": ..., "devices": ..., "accelerator": ..., "space": ..., "objective": ...,
//               "simulate": ..., "fidelity": ...},
//    "estimated": [{"index": i, "layout": "TP 8, ...", "iteration_ps": ..., "compute_ps": ...,
//                   "exposed_ps": ..., "bubble_ps": ..., "tokens": ..., "model_flops": ...} or
//                  {"index": i, "layout": ..., "refused": "workload.parallel.dtype"}, ...],
//    "simulated": [{"index": i, "layout": ..., "iteration_ps": ..., ...} or {..., "failure": "..."}]}
// Indexes are positions in the space's product; times are integer picoseconds, so a resumed search
// reads back exactly what it had computed. The file is replaced atomically (written under a temporary
// name, then renamed): a killed search leaves the last complete version.
#include <cstdint>
#include <map>
#include <string>

#include "pdes/time.hpp"

namespace rackscale::app {

// What identifies a search: a journal of another search is refused on --resume.
struct SearchIdentity {
  std::string model, accelerator, space, objective, fidelity;
  std::uint64_t devices = 0, simulate = 0;
  friend bool operator==(const SearchIdentity&, const SearchIdentity&) = default;
};

struct EstimateRecord {
  pdes::SimTime iteration = 0, compute = 0, exposed = 0, bubble = 0;
  std::uint64_t tokens = 0;
  double model_flops = 0;
  std::string refused;  // the plan's rule, when the job cannot be built (then no figures)
  template <class Archive>
  void serialize(Archive& ar, unsigned) {
    ar & iteration & compute & exposed & bubble & tokens & model_flops & refused;
  }
};

struct SimulationRecord {
  pdes::SimTime iteration = 0, compute = 0, exposed = 0, bubble = 0;
  std::string failure;  // the simulation's refusal (then no figures)
  template <class Archive>
  void serialize(Archive& ar, unsigned) {
    ar & iteration & compute & exposed & bubble & failure;
  }
};

struct SearchJournal {
  SearchIdentity identity;
  std::map<std::uint64_t, EstimateRecord> estimated;   // by index in the product
  std::map<std::uint64_t, SimulationRecord> simulated;  // by index in the product
  std::map<std::uint64_t, std::string> layouts;        // by index: the description written beside it
};

// Reads `path` for a search whose identity is `expected`. Throws std::invalid_argument naming the file
// (and the entry or key at fault): not JSON, not a journal, another search's ("FILE: the journal is of a
// search with space '...', this one has '...'"), or an entry missing a number.
[[nodiscard]] SearchJournal read_search_journal(const std::string& path, const SearchIdentity& expected);

// The journal as JSON text (one entry per line, for a reader's eyes and for `tail`).
[[nodiscard]] std::string search_journal_text(const SearchJournal& journal);

}  // namespace rackscale::app
