#include "app/search_journal.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace rackscale::app {

namespace {

constexpr const char* kFormat = "rackscale-search-journal";
constexpr int kVersion = 1;

using Json = nlohmann::ordered_json;

Json identity_json(const SearchIdentity& id) {
  return Json{{"model", id.model},         {"devices", id.devices},     {"accelerator", id.accelerator},
              {"space", id.space},         {"objective", id.objective}, {"simulate", id.simulate},
              {"fidelity", id.fidelity}};
}

// The value of `key` in `object`, or an error naming the file and where.
template <typename T>
T field(const Json& object, const char* key, const std::string& where) {
  const auto it = object.find(key);
  if (it == object.end()) throw std::invalid_argument(fmt::format("{}: no \"{}\"", where, key));
  try {
    return it->get<T>();
  } catch (const nlohmann::json::exception&) {
    throw std::invalid_argument(fmt::format("{}: \"{}\" is {}, not what was expected", where, key, it->dump()));
  }
}

// Which identity field differs, as "space 'a' (this search: 'b')".
std::string difference(const SearchIdentity& found, const SearchIdentity& expected) {
  const Json f = identity_json(found), e = identity_json(expected);
  std::string out;
  for (const auto& [key, value] : e.items())
    if (f[key] != value)
      out += fmt::format("{}{} {} (this search: {})", out.empty() ? "" : ", ", key, f[key].dump(), value.dump());
  return out;
}

// The four times of an estimate or a simulation, in picoseconds.
template <typename Record>
void read_times(const Json& e, Record& r, const std::string& where) {
  r.iteration = field<pdes::SimTime>(e, "iteration_ps", where);
  r.compute = field<pdes::SimTime>(e, "compute_ps", where);
  r.exposed = field<pdes::SimTime>(e, "exposed_ps", where);
  r.bubble = field<pdes::SimTime>(e, "bubble_ps", where);
  if (r.iteration <= 0) throw std::invalid_argument(fmt::format("{}: \"iteration_ps\" must be positive", where));
}
template <typename Record>
void write_times(Json& e, const Record& r) {
  e["iteration_ps"] = r.iteration;
  e["compute_ps"] = r.compute;
  e["exposed_ps"] = r.exposed;
  e["bubble_ps"] = r.bubble;
}

// One entry a line: {"index": i, "layout": ..., what `fill` adds}.
template <typename Records, typename Layout, typename Fill>
void write_entries(std::ostream& out, const Records& records, const Layout& layout, const Fill& fill) {
  const char* separator = "\n";
  for (const auto& [index, r] : records) {
    Json e{{"index", index}, {"layout", layout(index)}};
    fill(e, r);
    out << separator << e.dump();
    separator = ",\n";
  }
}

}  // namespace

SearchJournal read_search_journal(const std::string& path, const SearchIdentity& expected) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument(fmt::format("--resume: {}: cannot be read (no such file?)", path));
  Json doc;
  try {
    doc = Json::parse(in);
  } catch (const nlohmann::json::parse_error& e) {
    throw std::invalid_argument(
        fmt::format("--resume: {}: not JSON at byte {} (a search journal written by --output was expected)", path,
                    e.byte));
  }
  if (!doc.is_object() || doc.value("format", std::string{}) != kFormat)
    throw std::invalid_argument(
        fmt::format("--resume: {}: expected a search journal (\"format\": \"{}\"), found none", path, kFormat));
  if (doc.value("version", 0) != kVersion)
    throw std::invalid_argument(fmt::format("--resume: {}: expected version {}, found {}", path, kVersion,
                                            doc.contains("version") ? doc["version"].dump() : "none"));
  SearchJournal j;
  const std::string head = fmt::format("--resume: {}: search", path);
  const Json& s = doc.contains("search") ? doc["search"] : Json::object();
  j.identity.model = field<std::string>(s, "model", head);
  j.identity.devices = field<std::uint64_t>(s, "devices", head);
  j.identity.accelerator = field<std::string>(s, "accelerator", head);
  j.identity.space = field<std::string>(s, "space", head);
  j.identity.objective = field<std::string>(s, "objective", head);
  j.identity.simulate = field<std::uint64_t>(s, "simulate", head);
  j.identity.fidelity = field<std::string>(s, "fidelity", head);
  if (!(j.identity == expected))
    throw std::invalid_argument(fmt::format("--resume: {}: the journal is of another search: {}", path,
                                            difference(j.identity, expected)));
  const auto entries = [&](const char* list, auto&& read) {
    if (!doc.contains(list)) return;
    if (!doc[list].is_array())
      throw std::invalid_argument(fmt::format("--resume: {}: \"{}\" is not a list", path, list));
    std::size_t n = 0;
    for (const Json& e : doc[list]) {
      const std::string where = fmt::format("--resume: {}: {}[{}]", path, list, n++);
      if (!e.is_object()) throw std::invalid_argument(fmt::format("{}: expected an object, found {}", where, e.dump()));
      const auto index = field<std::uint64_t>(e, "index", where);
      if (e.contains("layout")) j.layouts[index] = field<std::string>(e, "layout", where);
      read(e, index, where);
    }
  };
  entries("estimated", [&](const Json& e, std::uint64_t index, const std::string& where) {
    EstimateRecord r;
    if (e.contains("refused")) {
      r.refused = field<std::string>(e, "refused", where);
    } else {
      read_times(e, r, where);
      r.tokens = field<std::uint64_t>(e, "tokens", where);
      r.model_flops = field<double>(e, "model_flops", where);
    }
    j.estimated[index] = r;
  });
  entries("simulated", [&](const Json& e, std::uint64_t index, const std::string& where) {
    SimulationRecord r;
    if (e.contains("failure")) {
      r.failure = field<std::string>(e, "failure", where);
    } else {
      read_times(e, r, where);
    }
    j.simulated[index] = r;
  });
  return j;
}

std::string search_journal_text(const SearchJournal& journal) {
  std::ostringstream out;
  out << "{\"format\": \"" << kFormat << "\", \"version\": " << kVersion
      << ",\n\"search\": " << identity_json(journal.identity).dump() << ",\n\"estimated\": [";
  const auto layout = [&](std::uint64_t index) {
    const auto it = journal.layouts.find(index);
    return it == journal.layouts.end() ? std::string() : it->second;
  };
  write_entries(out, journal.estimated, layout, [](Json& e, const EstimateRecord& r) {
    if (!r.refused.empty()) {
      e["refused"] = r.refused;
      return;
    }
    write_times(e, r);
    e["tokens"] = r.tokens;
    e["model_flops"] = r.model_flops;
  });
  out << "],\n\"simulated\": [";
  write_entries(out, journal.simulated, layout, [](Json& e, const SimulationRecord& r) {
    if (r.failure.empty())
      write_times(e, r);
    else
      e["failure"] = r.failure;
  });
  out << "]}\n";
  return out.str();
}

}  // namespace rackscale::app
