<% throw new Error("template failed on purpose"); %>
