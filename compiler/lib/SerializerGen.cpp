//===- SerializerGen.cpp - poc::Serializer for user classes ---------------===//
#include "pocc/SerializerGen.h"
#include "pocc/Serializability.h"
#include "pocc/TypeNames.h"

#include "clang/AST/ASTContext.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;

namespace pocc {

std::string emitFieldAccessPrelude() {
  return "namespace poc_gen {\n"
         "/// Explicit instantiations may name private members: this yields\n"
         "/// the member pointer `M` through the friend `poc_field(Tag)`.\n"
         "template <class Tag, typename Tag::type M> struct field_access {\n"
         "friend typename Tag::type poc_field(Tag) { return M; }\n"
         "};\n"
         "template <class C, class T> using member_ptr = T C::*;\n"
         "} // namespace poc_gen\n";
}

std::string emitSerializer(const CXXRecordDecl *RD) {
  const ASTContext &Ctx = RD->getASTContext();
  std::string Type = codeSpelling(Ctx.getRecordType(RD), Ctx);
  std::string Id = classIdentifier(RD);
  std::string S, Accessors, Writes, Reads;
  llvm::raw_string_ostream OS(S);

  for (const CXXBaseSpecifier &B : RD->bases()) {
    std::string BT = codeSpelling(B.getType(), Ctx);
    Writes += "w.write(static_cast<const " + BT + " &>(v));\n";
    Reads += "r.read(static_cast<" + BT + " &>(v));\n";
  }
  for (const FieldDecl *F : RD->fields()) {
    std::string Name = F->getNameAsString();
    std::string Ref; // an lvalue for the field of `v`
    if (F->getAccess() == AS_public) {
      Ref = "v." + Name;
    } else {
      std::string Tag = Id + "__" + Name;
      Accessors += "struct " + Tag + " {\nusing type = member_ptr<" + Type + ", " +
                   codeSpelling(F->getType(), Ctx) + ">;\nfriend type poc_field(" + Tag +
                   ");\n};\n" + "template struct field_access<" + Tag + ", &" + Type + "::" + Name +
                   ">;\n";
      Ref = "(v.*poc_field(poc_gen::" + Tag + "{}))";
    }
    std::string Count = Serializability::countOf(F);
    if (Count.empty()) {
      Writes += "w.write(" + Ref + ");\n";
      Reads += "r.read(" + Ref + ");\n";
      continue;
    }
    // A counted pointer: a presence flag, then `count` elements.
    std::string Elem = codeSpelling(F->getType()->getPointeeType().getUnqualifiedType(), Ctx);
    std::string CountRef;
    for (const FieldDecl *G : RD->fields())
      if (G->getName() == Count)
        CountRef = G->getAccess() == AS_public
                       ? "v." + Count
                       : "(v.*poc_field(poc_gen::" + Id + "__" + Count + "{}))";
    std::string N = "static_cast<std::size_t>(" + CountRef + ")";
    Writes += "w.write(static_cast<bool>(" + Ref + "));\nif (" + Ref +
              ")\nfor (std::size_t i = 0; i < " + N + "; ++i)\nw.write(" + Ref + "[i]);\n";
    // The object owns its counted array (new[]/delete[]), so reading into
    // an existing object replaces the array it had.
    Reads += "delete[] " + Ref + ";\nif (r.read<bool>()) {\n" + Ref + " = new " + Elem + "[" + N +
             "];\nfor (std::size_t i = 0; i < " + N + "; ++i)\nr.read(" + Ref +
             "[i]);\n} else {\n" + Ref + " = nullptr;\n}\n";
  }
  OS << "// poc++: serializer of class '" << className(RD) << "'.\n";
  if (!Accessors.empty())
    OS << "namespace poc_gen {\n" << Accessors << "} // namespace poc_gen\n";
  OS << "namespace poc {\n"
     << "template <> struct Serializer<" << Type << "> {\n"
     << "static void write(Writer &w, const " << Type << " &v) {\n"
     << (Writes.empty() ? "(void)w;\n(void)v;\n" : Writes) << "}\n"
     << "static void read(Reader &r, " << Type << " &v) {\n"
     << (Reads.empty() ? "(void)r;\n(void)v;\n" : Reads) << "}\n"
     << "};\n} // namespace poc\n";
  return S;
}

} // namespace pocc
